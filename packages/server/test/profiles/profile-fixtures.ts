// Documents and profile definitions shared by the profile suites: an Assessment (properties, a reference, an
// embedded object with a nested collection, collections with descriptors to filter on) and a Credential (a TPDM
// extension with properties and a collection).
import type { ApiServer, InjectResponse } from '@edfi-api/framework';
import { importProfiles } from '../../src/profiles/index.js';
import { BASE_PATH, type EdFiTestServer } from '../support/edfi-server.js';

export const PERIOD = 'uri://ed-fi.org/AssessmentPeriodDescriptor#';
export const SYSTEM = 'uri://ed-fi.org/AssessmentIdentificationSystemDescriptor#';
export const CATEGORY = 'uri://ed-fi.org/AssessmentCategoryDescriptor#Achievement test';

export function assessment(identifier: string): Record<string, unknown> {
  return {
    assessmentIdentifier: identifier,
    namespace: 'uri://ed-fi.org/Assessment',
    assessmentTitle: 'Reading',
    assessmentFamily: 'Family',
    assessmentVersion: 2,
    assessmentCategoryDescriptor: CATEGORY,
    academicSubjects: [{ academicSubjectDescriptor: 'uri://ed-fi.org/AcademicSubjectDescriptor#Composite' }],
    educationOrganizationReference: { educationOrganizationId: 255901 },
    contentStandard: { title: 'Standard', version: 'v1', authors: [{ author: 'Ann' }, { author: 'Bob' }] },
    periods: [
      { assessmentPeriodDescriptor: `${PERIOD}Fall`, beginDate: '2024-09-01' },
      { assessmentPeriodDescriptor: `${PERIOD}End of Year`, beginDate: '2025-05-01' },
    ],
    identificationCodes: [{ assessmentIdentificationSystemDescriptor: `${SYSTEM}District`, identificationCode: 'D1' }],
  };
}

export function credential(identifier: string): Record<string, unknown> {
  return {
    credentialIdentifier: identifier,
    stateOfIssueStateAbbreviationDescriptor: 'uri://ed-fi.org/StateAbbreviationDescriptor#TX',
    credentialTypeDescriptor: 'uri://ed-fi.org/CredentialTypeDescriptor#Certification',
    issuanceDate: '2020-01-01',
    namespace: 'uri://ed-fi.org',
    _ext: { tpdm: { certificationTitle: 'Teacher', boardCertificationIndicator: true } },
  };
}

/** A profile of one resource; `read` and `write` are the content type elements' inner XML and selection. */
export function profileXml(name: string, resource: string, read?: [string, string], write?: [string, string]): string {
  const content = (tag: string, [selection, inner]: [string, string]) =>
    `<${tag} memberSelection="${selection}">${inner}</${tag}>`;
  return (
    `<Profile name="${name}"><Resource name="${resource}">` +
    `${read ? content('ReadContentType', read) : ''}${write ? content('WriteContentType', write) : ''}` +
    '</Resource></Profile>'
  );
}

export async function importAll(server: EdFiTestServer, profiles: readonly string[]): Promise<void> {
  await importProfiles(server.store, server.registry, `<Profiles>${profiles.join('')}</Profiles>`);
}

export const readable = (resource: string, profile: string) =>
  `application/vnd.ed-fi.${resource}.${profile}.readable+json`;
export const writable = (resource: string, profile: string) =>
  `application/vnd.ed-fi.${resource}.${profile}.writable+json`;

export function idOf(location: unknown): string {
  const text = String(location);
  return text.slice(text.lastIndexOf('/') + 1);
}

export const ADMIN = { key: 'admin', secret: 'an-admin-secret-that-is-long-enough' };
export const ADMIN_AUTH = {
  authorization: `Basic ${Buffer.from(`${ADMIN.key}:${ADMIN.secret}`).toString('base64')}`,
};

/** POSTs profile XML to the admin API of an app created with ADMIN (which applies it at once). */
export async function importThroughAdmin(app: ApiServer, xml: string): Promise<InjectResponse> {
  return app.inject({
    method: 'POST',
    url: `${BASE_PATH}/admin/profiles`,
    headers: { ...ADMIN_AUTH, 'content-type': 'application/xml' },
    body: xml,
  });
}
