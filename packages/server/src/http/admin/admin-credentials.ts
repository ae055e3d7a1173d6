// The one administrator credential of the admin API, checked as HTTP Basic credentials in constant time, within the
// failure limits of credential checks (per presented key: the framework's check does not see the address).
import { safeEqual, type ClientRepository } from '@edfi-api/framework';
import { throttledChecks } from '../credential-checks.js';

export interface AdminCredentials {
  readonly key: string;
  readonly secret: string;
}

export function adminClientRepository(admin: AdminCredentials): ClientRepository {
  const checked = throttledChecks();
  const matches = (key: string, secret: string): boolean => {
    // Both comparisons always run, so timing reveals neither which half was wrong nor how much of it.
    const keyMatches = safeEqual(key, admin.key);
    const secretMatches = safeEqual(secret, admin.secret);
    return keyMatches && secretMatches;
  };
  return {
    validate: (key, secret) =>
      checked(
        key,
        undefined,
        () => Promise.resolve(matches(key, secret)),
        (ok) => ok,
      ),
  };
}
