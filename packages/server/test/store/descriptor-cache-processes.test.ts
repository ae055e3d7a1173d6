// The descriptor cache across processes (issue 14, defect 12): after another process deletes a descriptor, a reference
// to it is answered as the deleting process answers it (400: the descriptor does not exist), not 409 from a stale
// cache; each process checks the descriptor table's version before trusting memory.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { DESCRIPTOR_VERSION_CHECK_MS } from '../../src/store/relational/descriptor-cache.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

const run = promisify(execFile);
const SEX = 'uri://ed-fi.org/SexDescriptor';

function student(studentUniqueId: string, sex: string) {
  return {
    studentUniqueId,
    firstName: 'A',
    lastSurname: 'B',
    birthDate: '2010-01-01',
    birthSexDescriptor: `${SEX}#${sex}`,
  };
}

describeEachStore('a descriptor deleted by another process', (stores) => {
  let app: EdFiTestServer | undefined;
  afterEach(() => app?.close());

  it('is refused with 400 here too, once the version check has seen the deletion', { timeout: 60_000 }, async () => {
    const spec = await stores.newSpec({ shared: true });
    app = await startEdFiServer({ store: spec });
    expect((await app.data('POST', '/ed-fi/students', { body: student('d1', 'Female') })).status).toBe(201);
    expect((await app.data('POST', '/ed-fi/students', { body: student('d2', 'Male') })).status).toBe(201);
    expect((await app.data('DELETE', `/ed-fi/students/${await idOf('d2')}`)).status).toBe(204);

    const script = fileURLToPath(new URL('descriptor-delete-process.ts', import.meta.url));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script, spec, 'SexDescriptor', SEX, 'Male']);
    expect(stdout).toBe('deleted\n');
    await new Promise((resolve) => setTimeout(resolve, DESCRIPTOR_VERSION_CHECK_MS + 50));

    const response = await app.data('POST', '/ed-fi/students', { body: student('d3', 'Male') });
    expect(response.status, response.body).toBe(400);
    const errors = response.json<{ validationErrors: Record<string, string[]> }>().validationErrors;
    expect(Object.keys(errors)).toEqual(['$.birthSexDescriptor']);
    expect(errors['$.birthSexDescriptor']![0]).toContain(`'${SEX}#Male' does not exist.`);
    expect((await app.data('POST', '/ed-fi/students', { body: student('d4', 'Female') })).status).toBe(201);
  });

  async function idOf(studentUniqueId: string): Promise<string> {
    const list = await app!.data('GET', `/ed-fi/students?studentUniqueId=${studentUniqueId}`);
    return list.json<{ id: string }[]>()[0]!.id;
  }
});
