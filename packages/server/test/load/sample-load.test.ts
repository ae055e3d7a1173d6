import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadFiles, type FailedRecord, type LoadSummary } from '../../src/load/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { describeEachStore } from '../support/each-store.js';
import { temporaryFolder } from './support/convert-files.js';
import { elementCountsByResource } from './support/element-counts.js';
import { startSandboxServer, type SandboxServer } from './support/sandbox-server.js';
import { describeWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

/**
 * Elements of the sample that do not become items, and why. Nothing else may be missing.
 * - StudentEnrollment.xml is absent from the Ed-Fi sample set (MODEL.md §8.9), so no StudentSchoolAssociation or
 *   StudentEducationOrganizationAssociation exists: every assessment registration references one (409), and every
 *   registration battery-part association references a registration.
 * - Two elements repeat the natural key of an earlier one and update it (POST is an upsert): a CourseOffering
 *   (ALG-1, school 255901001, 2021-2022 Spring Semester) and the AssessmentAdministration (ACT-ABW, "Central Texas
 *   Assessment Institute (CTAI)", 255901).
 */
const ABSENT_REFERENCES: Record<string, { count: number; missing: string }> = {
  '/ed-fi/studentAssessmentRegistrations': { count: 40, missing: 'StudentEducationOrganizationAssociation' },
  '/ed-fi/studentAssessmentRegistrationBatteryPartAssociations': {
    count: 120,
    missing: 'StudentAssessmentRegistration',
  },
};
const REPEATED_KEYS: Record<string, number> = { '/ed-fi/courseOfferings': 1, '/ed-fi/assessmentAdministrations': 1 };

describeWithEdfiSource('the Grand Bend sample', () => {
  describeEachStore('a full load of the Grand Bend sample over HTTP into a fresh server', (stores) => {
    let sandbox: SandboxServer;
    let summary: LoadSummary;
    let failedFile: string;

    beforeAll(async () => {
      sandbox = await startSandboxServer(await stores.newSpec());
      failedFile = path.join(temporaryFolder(), 'failed.jsonl');
      summary = await loadFiles({ inputs: [SAMPLE_DATA], target: sandbox.target, failedFile, parallel: 8 });
    }, 120_000);
    afterAll(() => sandbox.close());

    it('stores one item per element, less only the records whose referenced data the sample lacks', async () => {
      const registry = getModelRegistry();
      const elements = elementCountsByResource(SAMPLE_DATA);
      const expected: Record<string, number> = {};
      const stored: Record<string, number> = {};
      for (const [resource, count] of elements) {
        const [, namespace, endpoint] = resource.split('/');
        // Descriptor resources also hold the default values a new store is seeded with (the samples add other ones).
        const seeded = registry.descriptorValuesOf(registry.getResource(namespace!, endpoint!)!.resourceName).length;
        const lost = (ABSENT_REFERENCES[resource]?.count ?? 0) + (REPEATED_KEYS[resource] ?? 0);
        expected[resource] = seeded + count - lost;
        const response = await sandbox.get(`/data/v3${resource}?limit=0&totalCount=true`);
        stored[resource] = Number(response.headers['total-count']);
      }
      expect(stored).toEqual(expected);
      expect(summary).toMatchObject({ documents: 17_449, created: 17_287, updated: 2, failed: 160, aborted: false });
    });

    it('reports each failed record with its source, document, status and the API error', () => {
      const failures = readFileSync(failedFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as FailedRecord);
      expect(failures).toHaveLength(160);
      for (const failure of failures) {
        const expectation = ABSENT_REFERENCES[failure.resource!]!;
        expect(failure).toMatchObject({
          source: { file: path.join(SAMPLE_DATA, 'AssessmentRegistration.xml'), line: expect.any(Number) },
          status: 409,
          error: {
            type: 'urn:ed-fi:api:data-conflict:unresolved-reference',
            detail: expect.stringContaining(expectation.missing),
          },
        });
        expect(failure.document).toBeTypeOf('object');
      }
      for (const [resource, counts] of Object.entries(summary.resources)) {
        expect(counts.failed, resource).toBe(ABSENT_REFERENCES[resource]?.count ?? 0);
        expect(counts.updated, resource).toBe(REPEATED_KEYS[resource] ?? 0);
      }
    });

    it('stores the documents as converted: a school with its ref-resolved LEA and its descriptors', async () => {
      const { body } = await sandbox.get<Record<string, unknown>[]>('/data/v3/ed-fi/schools?schoolId=255901001');
      expect(body[0]).toMatchObject({
        schoolId: 255901001,
        nameOfInstitution: 'Grand Bend High School',
        localEducationAgencyReference: { localEducationAgencyId: 255901 },
        gradeLevels: expect.arrayContaining([
          { gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade' },
        ]),
      });
    });
  });
});
