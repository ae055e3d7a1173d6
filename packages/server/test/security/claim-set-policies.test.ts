// Claim-set policies: specific cases, and the claims kept from the shared DMS claims file (TPDM, the E2E claim sets)
// against that file, read here independently of the model importer. ods-claim-sets.test.ts checks the ODS ones.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderProblem } from '../../src/http/problem-details.js';
import { getModelRegistry, type ClaimAction, type ResourceModel } from '../../src/model/index.js';
import {
  actionUri,
  authorizeClaims,
  claimSetCatalogue,
  claimSetPolicy,
  odsClaimUri,
  UnknownClaimSetError,
} from '../../src/security/index.js';
import { describeWithEdfiSource, EDFI_SOURCE_DIR, itWithEdfiSource } from '../support/edfi-source.js';

interface SharedClaim {
  readonly name: string;
  readonly defaultAuthorization?: { actions: { name: ClaimAction; authorizationStrategies: { name: string }[] }[] };
  readonly claimSets?: {
    name: string;
    actions: { name: ClaimAction; authorizationStrategyOverrides?: { name: string }[] }[];
  }[];
  readonly claims?: SharedClaim[];
}

interface SharedClaimsFile {
  readonly claimSets: { claimSetName: string }[];
  readonly claimsHierarchy: SharedClaim[];
}

let sharedFile: { claims: SharedClaimsFile; lineages: Map<string, SharedClaim[]> } | undefined;

/** The shared claims file, read on first use, and its claim URI → the claim and its ancestors, most specific first. */
function shared(): { claims: SharedClaimsFile; lineages: Map<string, SharedClaim[]> } {
  if (sharedFile !== undefined) return sharedFile;
  const claims = JSON.parse(readFileSync(path.join(EDFI_SOURCE_DIR, 'ds-5.2-claims.json'), 'utf8')) as SharedClaimsFile;
  const lineages = new Map<string, SharedClaim[]>();
  (function index(level: SharedClaim[], ancestors: SharedClaim[]): void {
    for (const claim of level) {
      lineages.set(claim.name, [claim, ...ancestors]);
      index(claim.claims ?? [], [claim, ...ancestors]);
    }
  })(claims.claimsHierarchy, []);
  sharedFile = { claims, lineages };
  return sharedFile;
}

const ACTIONS: readonly ClaimAction[] = ['Create', 'Read', 'Update', 'Delete', 'ReadChanges'];

/** The reference semantics of contract §8.2 over the shared file: undefined when not granted, else the strategies. */
function expectedStrategies(fileName: string, claimUri: string, action: ClaimAction): string[] | undefined {
  const lineage = shared().lineages.get(claimUri)!;
  const grants = lineage.flatMap((claim) => (claim.claimSets ?? []).filter((set) => set.name === fileName));
  const granted = grants.flatMap((set) => set.actions).filter((each) => each.name === action);
  if (granted.length === 0) return undefined;
  const override = granted.map((each) => each.authorizationStrategyOverrides ?? []).find((list) => list.length > 0);
  const defaults = lineage
    .map(
      (claim) =>
        claim.defaultAuthorization?.actions.find((each) => each.name === action)?.authorizationStrategies ?? [],
    )
    .find((list) => list.length > 0);
  return (override ?? defaults ?? []).map((strategy) => strategy.name);
}

function lineageOf(claimUri: string): string[] {
  return shared()
    .lineages.get(claimUri)!
    .map((claim) => odsClaimUri(claim.name));
}

const registry = getModelRegistry();
const resource = (endpoint: string, namespace = 'ed-fi'): ResourceModel => registry.getResource(namespace, endpoint)!;

describe('claim-set names', () => {
  itWithEdfiSource('has the ODS claim sets under their ODS names, and the E2E claim sets of the shared file', () => {
    const { names } = claimSetCatalogue();
    const e2e = shared().claims.claimSets.filter((set) => set.claimSetName.startsWith('E2E-'));
    expect(names).toHaveLength(12 + e2e.length);
    expect(names).toEqual(
      expect.arrayContaining([
        ...e2e.map((set) => set.claimSetName),
        'AB Connect',
        'Finance Vendor',
        'SIS Vendor',
        'Ed-Fi Sandbox',
        'District Hosted SIS Vendor',
        'Roster Vendor',
        'Assessment Vendor',
        'Assessment Read',
        'Bootstrap Descriptors and EdOrgs',
        'Education Preparation Program',
        'Ed-Fi API Publisher - Reader',
        'Ed-Fi API Publisher - Writer',
        'E2E-NoFurtherAuthRequiredClaimSet',
      ]),
    );
  });

  it('resolves either spelling in any case, and refuses an unknown name listing the valid ones', () => {
    expect(claimSetCatalogue().resolve('BootstrapDescriptorsandEdOrgs')).toBe('Bootstrap Descriptors and EdOrgs');
    expect(claimSetPolicy('ed-fi sandbox').name).toBe('Ed-Fi Sandbox');
    expect(() => claimSetPolicy('Superuser')).toThrow(UnknownClaimSetError);
    expect(() => claimSetPolicy('Superuser')).toThrow(
      /^Unknown claim set 'Superuser'\. Valid claim sets: AB Connect, /,
    );
  });
});

describeWithEdfiSource('claim-set policies', () => {
  const NO_FURTHER = ['NoFurtherAuthorizationRequired'];
  const table: [
    claimSet: string,
    endpoint: string,
    action: ClaimAction,
    strategies: string[] | 'resource' | 'action',
  ][] = [
    ['SIS Vendor', 'studentSchoolAssociations', 'Create', ['RelationshipsWithEdOrgsOnly']],
    ['SIS Vendor', 'studentSchoolAssociations', 'Read', ['RelationshipsWithEdOrgsAndPeople']],
    ['SIS Vendor', 'studentSchoolAssociations', 'Update', ['RelationshipsWithEdOrgsAndPeople']],
    ['SIS Vendor', 'studentSchoolAssociations', 'Delete', ['RelationshipsWithEdOrgsAndPeople']],
    ['SIS Vendor', 'students', 'Create', NO_FURTHER],
    ['SIS Vendor', 'schools', 'Read', NO_FURTHER],
    ['SIS Vendor', 'schools', 'Create', 'action'],
    ['SIS Vendor', 'gradeLevelDescriptors', 'Update', 'action'],
    ['Assessment Read', 'assessments', 'Create', 'action'],
    ['Assessment Read', 'assessments', 'Read', ['NamespaceBased']],
    ['Assessment Vendor', 'staffs', 'Read', 'resource'],
    ['Assessment Vendor', 'students', 'Read', ['RelationshipsWithEdOrgsAndPeople']],
    ['Bootstrap Descriptors and EdOrgs', 'gradeLevelDescriptors', 'Create', NO_FURTHER],
    ['Bootstrap Descriptors and EdOrgs', 'schools', 'Create', NO_FURTHER],
    ['Bootstrap Descriptors and EdOrgs', 'schools', 'Update', 'action'],
    ['Roster Vendor', 'sections', 'Read', ['RelationshipsWithEdOrgsAndPeople']],
    ['Roster Vendor', 'sections', 'Create', 'action'],
    ['Roster Vendor', 'sections', 'Update', 'action'],
    ['Roster Vendor', 'sections', 'Delete', 'action'],
    ['District Hosted SIS Vendor', 'localEducationAgencies', 'Update', NO_FURTHER],
    ['District Hosted SIS Vendor', 'localEducationAgencies', 'Create', 'action'],
    ['District Hosted SIS Vendor', 'schools', 'Create', NO_FURTHER],
    ['Ed-Fi Sandbox', 'schoolYearTypes', 'Read', NO_FURTHER],
    ['Ed-Fi Sandbox', 'schoolYearTypes', 'Create', 'action'],
    ['Ed-Fi Sandbox', 'gradeLevelDescriptors', 'Create', ['NamespaceBased']],
    ['Ed-Fi Sandbox', 'studentContactAssociations', 'Read', ['RelationshipsWithStudentsOnly']],
    ['Ed-Fi Sandbox', 'studentContactAssociations', 'ReadChanges', ['RelationshipsWithStudentsOnlyIncludingDeletes']],
    ['Education Preparation Program', 'candidates', 'Create', NO_FURTHER],
  ];

  it.each(table)('%s on %s %s → %j', (claimSet, endpoint, action, expected) => {
    const target = resource(endpoint, endpoint === 'candidates' ? 'tpdm' : 'ed-fi');
    const fileName = shared().claims.claimSets.find(
      (set) => set.claimSetName.toLowerCase() === claimSet.replace(/[^0-9A-Za-z]/g, '').toLowerCase(),
    )!.claimSetName;
    const outcome = claimSetPolicy(claimSet).check(target, action);
    const inFile = expectedStrategies(fileName, target.resourceClaim, action);
    if (Array.isArray(expected)) {
      expect(inFile).toEqual(expected);
      expect(outcome).toEqual({ granted: true, strategies: expected });
    } else {
      expect(inFile).toBeUndefined();
      expect(outcome.granted).toBe(false);
      if (!outcome.granted) expect(outcome.problem.problem.type).toMatch(new RegExp(`:access-denied:${expected}$`));
    }
  });

  /** TPDM claims whose whole lineage is TPDM's; the others hang under ODS claims (surveyDomain, say). */
  const isTpdmOnly = (target: ResourceModel) =>
    target.namespace === 'tpdm' &&
    shared()
      .lineages.get(target.resourceClaim)!
      .every((claim) => /\/(tpdm\/|domains\/tpdm)/.test(claim.name));

  it('agrees with the shared file on TPDM-only lineages, and on every resource for the E2E claim sets', () => {
    for (const { claimSetName: fileName } of shared().claims.claimSets) {
      if (claimSetCatalogue().resolve(fileName) === undefined) continue;
      const policy = claimSetPolicy(fileName);
      const e2e = fileName.startsWith('E2E-');
      for (const target of registry.allResources.filter((each) => e2e || isTpdmOnly(each))) {
        for (const action of ACTIONS) {
          const outcome = policy.check(target, action);
          const expected = expectedStrategies(fileName, target.resourceClaim, action);
          const label = `${fileName} ${target.endpoint} ${action}`;
          // Strategies combine by kind (contract §8.4), so their order carries no meaning.
          expect(outcome.granted ? [...outcome.strategies].sort() : undefined, label).toEqual(expected?.sort());
        }
        expect(policy.grantedActions(target)).toEqual(
          ACTIONS.filter((action) => expectedStrategies(fileName, target.resourceClaim, action) !== undefined),
        );
      }
    }
  });
});

describe('403 problems of the claim check (contract §8.7)', () => {
  it('denies a resource outside the claim set with the lineage of resource claims', () => {
    const staffs = resource('staffs');
    const outcome = claimSetPolicy('Assessment Vendor').check(staffs, 'Read');
    if (outcome.granted) throw new Error('Assessment Vendor should not read staffs');
    expect(JSON.parse(renderProblem(outcome.problem, 'c-403').body as string)).toEqual({
      detail: 'Access to the requested data could not be authorized. You do not have permissions to access this data.',
      type: 'urn:ed-fi:api:security:authorization:access-denied:resource',
      title: 'Authorization Denied',
      status: 403,
      correlationId: 'c-403',
      errors: [
        "The API client's assigned claim set (currently 'Assessment Vendor') must include one of the following " +
          "resource claims to provide access to this resource: 'http://ed-fi.org/ods/identity/claims/staff', " +
          "'http://ed-fi.org/ods/identity/claims/domains/people'.",
      ],
    });
    expect(lineageOf(staffs.resourceClaim)).toEqual([
      'http://ed-fi.org/ods/identity/claims/staff',
      'http://ed-fi.org/ods/identity/claims/domains/people',
    ]);
  });

  it('denies an action the claim set does not grant, naming the action URI', () => {
    const assessments = resource('assessments');
    let thrown: unknown;
    try {
      authorizeClaims({ claimSetName: 'Assessment Read' }, assessments, 'Create');
    } catch (error) {
      thrown = error;
    }
    const rendered = renderProblem(thrown as never, 'c-403');
    expect(rendered.status).toBe(403);
    expect(rendered.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8' });
    expect(rendered.body).toBe(
      JSON.stringify({
        detail:
          'Access to the requested data could not be authorized. You do not have permissions to perform the requested ' +
          'operation on the data.',
        type: 'urn:ed-fi:api:security:authorization:access-denied:action',
        title: 'Authorization Denied',
        status: 403,
        correlationId: 'c-403',
        errors: [
          "The API client's assigned claim set (currently 'Assessment Read') must grant permission of the " +
            "'http://ed-fi.org/odsapi/actions/create' action on one of the following resource claims: " +
            "'http://ed-fi.org/ods/identity/claims/assessment', 'http://ed-fi.org/ods/identity/claims/domains/assessmentMetadata'.",
        ],
      }),
    );
  });

  it('names extension claims in the schema-based form and every action in camelCase', () => {
    expect(odsClaimUri(resource('candidates', 'tpdm').resourceClaim)).toBe(
      'http://ed-fi.org/ods/identity/claims/tpdm/candidate',
    );
    expect(ACTIONS.map(actionUri)).toEqual([
      'http://ed-fi.org/odsapi/actions/create',
      'http://ed-fi.org/odsapi/actions/read',
      'http://ed-fi.org/odsapi/actions/update',
      'http://ed-fi.org/odsapi/actions/delete',
      'http://ed-fi.org/odsapi/actions/readChanges',
    ]);
  });

  it('denies every resource to a client of a claim set the ODS 7.3 no longer ships, with 403 rather than an error', () => {
    expect(() => claimSetPolicy('Ed-Fi ODS Admin App')).toThrow(UnknownClaimSetError);
    let thrown: unknown;
    try {
      authorizeClaims({ claimSetName: 'Ed-Fi ODS Admin App' }, resource('organizationDepartments'), 'Read');
    } catch (error) {
      thrown = error;
    }
    const rendered = renderProblem(thrown as never, 'c-403');
    expect(rendered.status).toBe(403);
    expect(JSON.parse(rendered.body as string)).toMatchObject({
      type: 'urn:ed-fi:api:security:authorization:access-denied:resource',
    });
    expect(claimSetCatalogue().clientPolicy('SeedLoader').grantedActions(resource('students'))).toEqual([]);
  });

  it('returns the strategies when the claim check passes', () => {
    expect(authorizeClaims({ claimSetName: 'SIS Vendor' }, resource('studentSchoolAssociations'), 'Create')).toEqual([
      'RelationshipsWithEdOrgsOnly',
    ]);
  });
});
