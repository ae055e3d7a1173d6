// `edfi-api doctor --store …`: checks a store the way the server will use it (reachable, schema, seeded, clients and
// tokens), changing nothing, and says what to do about each problem. Exits 1 when a check fails.
import { existsSync } from 'node:fs';
import { getModelRegistry, modelFingerprint, type ModelRegistry } from '../model/index.js';
import { createStore, isPostgresSpec, recordedRegistry, redactedSpec, type Store } from '../store/index.js';
import { sqliteFileOf } from '../setup/store-location.js';

export interface DoctorFlags {
  readonly store: string;
}

interface Finding {
  readonly ok: boolean;
  readonly check: string;
  readonly detail: string;
  /** What to do, for a problem. */
  readonly advice?: string;
}

const passed = (check: string, detail: string): Finding => ({ ok: true, check, detail });
const failed = (check: string, detail: string, advice: string): Finding => ({ ok: false, check, detail, advice });

/** Counts the stored documents of the resources through the store's own list. */
async function countOf(store: Store, resources: ModelRegistry['resources']): Promise<number> {
  let total = 0;
  for (const resource of resources) {
    total += (await store.list(resource, { filters: [], offset: 0, limit: 0, totalCount: true })).totalCount ?? 0;
  }
  return total;
}

async function seedingFindings(store: Store, registry: ModelRegistry, spec: string): Promise<Finding[]> {
  const schoolYearResources = registry.allResources.filter((resource) => resource.isSchoolYearEnumeration);
  const schoolYears = await countOf(store, schoolYearResources);
  const descriptors = await countOf(store, registry.descriptorResources);
  const seeded = `${descriptors} descriptors, ${schoolYears} school years`;
  if (schoolYears > 0) return [passed('seeded', seeded)];
  return [
    failed(
      'seeded',
      `${seeded}: this store was never seeded, so every write that uses a school year or a descriptor fails with 400`,
      `set up a new store (edfi-api migrate --store <new spec>), then move the data over: edfi-api export --store ` +
        `${spec} <folder>, and edfi-api load --direct --store <new spec> <folder>`,
    ),
  ];
}

async function clientFindings(store: Store, spec: string): Promise<Finding[]> {
  const clients = await store.listClientDetails(Date.now());
  const active = clients.filter(({ client }) => client.active);
  const tokens = active.reduce((sum, { liveTokens }) => sum + liveTokens, 0);
  const detail = `${active.length} active of ${clients.length}, ${tokens} live tokens`;
  if (active.length > 0) return [passed('clients', detail)];
  return [
    failed('clients', detail, `no client can get a token: edfi-api clients create --store ${spec} --claim-set <name>`),
  ];
}

async function openedStoreFindings(store: Store, registry: ModelRegistry, spec: string): Promise<Finding[]> {
  await store.open();
  return [...(await seedingFindings(store, registry, spec)), ...(await clientFindings(store, spec))];
}

async function storeFindings(spec: string): Promise<Finding[]> {
  const shown = redactedSpec(spec);
  const file = isPostgresSpec(spec) ? undefined : sqliteFileOf(spec);
  if (file !== undefined && !existsSync(file)) {
    return [
      failed(
        'reachable',
        `no SQLite file at ${file}`,
        `edfi-api serve or edfi-api migrate --store ${shown} sets it up`,
      ),
    ];
  }
  // The extensions the store records; an unreachable store is reported below, on the registry without them.
  const registry = await recordedRegistry(spec).catch(() => getModelRegistry());
  const model = passed('model', `this release serves DS 5.2 + TPDM 1.1, model fingerprint ${modelFingerprint()}`);
  const store = createStore(spec, registry);
  try {
    let status;
    try {
      status = await store.schemaStatus();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return [
        failed('reachable', reason, 'check the spec, that the database server runs and that it accepts the user'),
      ];
    }
    const reachable = passed('reachable', shown);
    if (status === 'empty') {
      return [
        reachable,
        model,
        failed('schema', 'none: a new database', `edfi-api migrate --store ${shown} sets it up`),
      ];
    }
    if (status === 'outdated') {
      return [
        reachable,
        model,
        failed('schema', 'older than this release, or made for another model', `edfi-api migrate --store ${shown}`),
      ];
    }
    const schema = passed('schema', 'current: the tables of this release and model');
    return [reachable, model, schema, ...(await openedStoreFindings(store, registry, shown))];
  } finally {
    await store.close();
  }
}

function formatted(finding: Finding): string {
  const line = `${finding.ok ? 'ok     ' : 'PROBLEM'} ${finding.check}: ${finding.detail}`;
  return finding.advice === undefined ? line : `${line}\n        → ${finding.advice}`;
}

export async function doctorCommand(flags: DoctorFlags, print: (text: string) => void): Promise<void> {
  const findings = await storeFindings(flags.store);
  for (const finding of findings) print(formatted(finding));
  const problems = findings.filter((finding) => !finding.ok).length;
  print(problems === 0 ? 'No problems found.' : `${problems} problem${problems === 1 ? '' : 's'} found.`);
  if (problems > 0) process.exitCode = 1;
}
