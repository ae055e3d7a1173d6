// `edfi-api doctor --store …`: what it finds on stores in different states, and what it advises; it changes nothing.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.js';
import { createClient } from '../../src/security/index.js';
import { migrateStore } from '../../src/setup/migration.js';
import { getModelRegistry } from '../../src/model/index.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from './support.js';

const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-doctor-'));
const specOf = (name: string): string => `sqlite:${path.join(folder, `${name}.sqlite`)}`;

async function doctor(spec: string): Promise<{ lines: string[]; exitCode: number }> {
  const lines: string[] = [];
  await doctorCommand({ store: spec }, (text) => lines.push(...text.split('\n')));
  const exitCode = Number(process.exitCode ?? 0);
  return { lines, exitCode };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('edfi-api doctor', () => {
  it('reports a missing SQLite file with how to set it up, exits 1 and creates nothing', async () => {
    const spec = specOf('missing');
    const result = await runCli(['doctor', '--store', spec]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`PROBLEM reachable: no SQLite file at ${path.join(folder, 'missing.sqlite')}`);
    expect(result.stdout).toContain(`→ edfi-api serve or edfi-api migrate --store ${spec} sets it up`);
    expect(result.stdout).toMatch(/1 problem found\.\n$/);
    expect(existsSync(path.join(folder, 'missing.sqlite'))).toBe(false);
  });

  it('finds a store that was never seeded and has no client, naming the commands that fix it', async () => {
    const spec = specOf('unseeded');
    await (await openStore(spec)).close();
    const { lines, exitCode } = await doctor(spec);
    expect(exitCode).toBe(1);
    expect(lines).toContain(`ok      reachable: ${spec}`);
    expect(lines.find((line) => line.includes(' model: '))).toMatch(/model fingerprint [0-9a-f]{16}$/);
    expect(lines).toContain('ok      schema: current: the tables of this release and model');
    expect(lines.find((line) => line.includes(' seeded: '))).toMatch(
      /^PROBLEM seeded: 0 descriptors, 0 school years: /,
    );
    expect(lines).toContain(
      `        → no client can get a token: edfi-api clients create --store ${spec} --claim-set <name>`,
    );
    expect(lines.at(-1)).toBe('2 problems found.');
  });

  it('passes a set-up store with a client, counting its live tokens', async () => {
    const spec = specOf('ready');
    await migrateStore(spec, getModelRegistry(), 'descriptors');
    const store = await openStore(spec);
    try {
      const client = await createClient(store, { key: 'doctorClient' });
      await store.saveAccessToken({ tokenHash: 'f'.repeat(64), clientKey: client.key, expiresAt: Date.now() + 60_000 });
    } finally {
      await store.close();
    }
    const { lines, exitCode } = await doctor(spec);
    expect(exitCode).toBe(0);
    expect(lines).toContain('ok      seeded: 3298 descriptors, 60 school years');
    expect(lines).toContain('ok      clients: 1 active of 1, 1 live tokens');
    expect(lines.at(-1)).toBe('No problems found.');
  });

  it('reports a database it cannot reach', async () => {
    const { lines, exitCode } = await doctor('postgres://postgres@127.0.0.1:1/test');
    expect(exitCode).toBe(1);
    expect(lines[0]).toMatch(/^PROBLEM reachable: .*ECONNREFUSED/);
    expect(lines[1]).toBe('        → check the spec, that the database server runs and that it accepts the user');
  });
});
