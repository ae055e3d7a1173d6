// The first-start message: where the API is, and the sandbox credentials, which are shown this one time only.
import type { FirstStart } from '../setup/first-start.js';

export function sandboxBanner(baseUrl: string, firstStart: FirstStart): string {
  const { key, secret } = firstStart.sandbox;
  return [
    '',
    `A new store was set up (${firstStart.descriptors} descriptors, ${firstStart.schoolYears} school years).`,
    'Sandbox client (the secret is stored hashed and will not be shown again):',
    `  Key:    ${key}`,
    `  Secret: ${secret}`,
    `  Claim set '${firstStart.sandbox.claimSet}', namespaces ${firstStart.sandbox.namespacePrefixes.join(', ')}, ` +
      `education organizations ${firstStart.sandbox.educationOrganizationIds.join(', ') || 'none'}`,
    'Get a token and call the API:',
    `  curl -s -u '${key}:${secret}' -d grant_type=client_credentials ${baseUrl}/oauth/token`,
    `  curl -s -H 'Authorization: Bearer <access_token>' ${baseUrl}/data/v3/ed-fi/gradeLevelDescriptors`,
    '',
  ].join('\n');
}
