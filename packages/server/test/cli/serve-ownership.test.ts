// `serve --ownership-based-authorization` through the command line: off by default (as in the ODS) a client whose
// claim set asks for OwnershipBased reads another token's documents; with the switch only its own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe, type RunningServer } from './support.js';

const BASE = '/v7.3/api';
const SECRET = 'an-ownership-secret-that-is-long-enough';
const folder = mkdtempSync(path.join(tmpdir(), 'edfi-api-serve-ownership-'));
const spec = `sqlite:${path.join(folder, 'edfi-api.sqlite')}`;

const actions = ['Create', 'Read', 'Update', 'Delete']
  .map(
    (action) => `<Action name="${action}"><AuthorizationStrategyOverrides>
      <AuthorizationStrategy name="OwnershipBased" /></AuthorizationStrategyOverrides></Action>`,
  )
  .join('');
const OWNERSHIP_CLAIM_SET = `<SecurityMetadata><Claims>
  <Claim name="http://ed-fi.org/ods/identity/claims/domains/people"><ClaimSets>
    <ClaimSet name="People By Owner"><Actions>${actions}</Actions></ClaimSet>
  </ClaimSets></Claim>
</Claims></SecurityMetadata>`;

async function ok(args: readonly string[]): Promise<void> {
  const result = await runCli([...args, '--store', spec]);
  expect(result.code, result.stderr).toBe(0);
}

class Caller {
  #token = '';
  constructor(
    readonly server: RunningServer,
    readonly key: string,
  ) {}

  url(endpoint: string): string {
    return `http://localhost:${this.server.port}${BASE}${endpoint}`;
  }

  async signIn(): Promise<this> {
    const response = await fetch(this.url('/oauth/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: this.key, client_secret: SECRET }),
    });
    expect(response.status).toBe(200);
    this.#token = ((await response.json()) as { access_token: string }).access_token;
    return this;
  }

  request(endpoint: string, body?: object): Promise<Response> {
    return fetch(this.url(`/data/v3/ed-fi/${endpoint}`), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${this.#token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  async createStudent(uniqueId: string): Promise<string> {
    const response = await this.request('students', {
      studentUniqueId: uniqueId,
      firstName: 'Owned',
      lastSurname: uniqueId,
      birthDate: '2010-01-01',
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return response.headers.get('location')!.split('/').pop()!;
  }
}

async function withServe(
  switches: readonly string[],
  use: (callers: { first: Caller; second: Caller }) => Promise<void>,
): Promise<void> {
  const server = await startServe(['--port', '0', '--store', spec, '--seed', 'none', ...switches]);
  try {
    const first = await new Caller(server, 'firstOwner').signIn();
    const second = await new Caller(server, 'secondOwner').signIn();
    await use({ first, second });
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

describe('serve --ownership-based-authorization', { timeout: 90_000 }, () => {
  const ids = { first: '', second: '' };

  beforeAll(async () => {
    const file = path.join(folder, 'people-by-owner.xml');
    writeFileSync(file, OWNERSHIP_CLAIM_SET);
    await ok(['claim-sets', 'import', file]);
    for (const [key, token] of [
      ['firstOwner', 'First Owner'],
      ['secondOwner', 'Second Owner'],
    ] as const) {
      await ok([
        'clients',
        'create',
        '--key',
        key,
        '--secret',
        SECRET,
        '--name',
        key,
        '--claim-set',
        'People By Owner',
        '--ownership-token',
        token,
      ]);
    }
  });

  it('is off by default: a client reads documents another token created', async () => {
    await withServe([], async ({ first, second }) => {
      ids.first = await first.createStudent('OWNED-BY-FIRST');
      ids.second = await second.createStudent('OWNED-BY-SECOND');
      expect((await first.request(`students/${ids.second}`)).status).toBe(200);
      const listed = (await (await first.request('students')).json()) as { studentUniqueId: string }[];
      expect(listed.map((student) => student.studentUniqueId).sort()).toEqual(['OWNED-BY-FIRST', 'OWNED-BY-SECOND']);
    });
  });

  it('with the switch, a client reads its own token’s documents only', async () => {
    await withServe(['--ownership-based-authorization'], async ({ first }) => {
      expect((await first.request(`students/${ids.first}`)).status).toBe(200);
      const other = await first.request(`students/${ids.second}`);
      expect(other.status).toBe(403);
      expect(((await other.json()) as { type: string }).type).toBe(
        'urn:ed-fi:api:security:authorization:ownership:access-denied:ownership-mismatch',
      );
      const listed = (await (await first.request('students')).json()) as { studentUniqueId: string }[];
      expect(listed.map((student) => student.studentUniqueId)).toEqual(['OWNED-BY-FIRST']);
    });
  });
});
