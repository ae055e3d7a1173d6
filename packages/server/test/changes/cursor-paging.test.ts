// Cursor paging and partitions through HTTP (contract §5): page tokens over the internal document id, Next-Page-Token
// on every non-empty page, and `/partitions` with its parameter rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePageToken, encodePageToken } from '../../src/api/page-token.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, WITH_CORRELATION } from '../support/problems.js';
import { student } from '../store/sample-documents.js';
import { idOf } from './support.js';

const STUDENTS = 12;
const INT32_MAX = 2_147_483_647;

type Item = Record<string, unknown>;

describeEachStore('cursor paging and partitions', (stores) => {
  let app: EdFiTestServer;
  const ids: string[] = [];

  beforeAll(async () => {
    app = await startEdFiServer({ store: await stores.newSpec() });
    for (let index = 0; index < STUDENTS; index++) {
      const body = student(`s${index}`, index % 3 === 0 ? 'Third' : 'Other');
      ids.push(idOf(await app.data('POST', '/ed-fi/students', { body })));
    }
  });
  afterAll(() => app.close());

  async function page(query: string): Promise<{ ids: string[]; next: string | undefined }> {
    const response = await app.data('GET', `/ed-fi/students?${query}`);
    expect(response.status, response.body).toBe(200);
    return { ids: response.json<Item[]>().map((item) => String(item.id)), next: response.headers['next-page-token'] };
  }

  /** Follows Next-Page-Token from a token to the empty page. */
  async function readAll(token: string, pageSize: number, extra = ''): Promise<string[]> {
    const seen: string[] = [];
    for (let next: string | undefined = token; next !== undefined;) {
      const result = await page(`pageToken=${next}&pageSize=${pageSize}${extra}`);
      seen.push(...result.ids);
      next = result.next;
    }
    return seen;
  }

  describe('page tokens', () => {
    it('continue after the last item, to the end of the collection after a limit/offset page', async () => {
      const first = await page('limit=5');
      expect(first.ids).toEqual(ids.slice(0, 5));
      const range = decodePageToken(first.next!)!;
      expect(range.max).toBe(INT32_MAX);
      expect(await readAll(first.next!, 4)).toEqual(ids.slice(5));
    });

    it('stay inside the token’s range, and end on an empty page without a token', async () => {
      const all = await page('limit=500');
      const start = decodePageToken((await page('offset=3&limit=1')).next!)!.min;
      const bounded = encodePageToken({ min: start, max: start + 3 });
      const inRange = await readAll(bounded, 2);
      expect(inRange.length).toBeGreaterThan(0);
      expect(ids.slice(4, 4 + inRange.length)).toEqual(inRange);
      expect(all.ids).toEqual(ids);
      const last = await page(`pageToken=${encodePageToken({ min: INT32_MAX, max: INT32_MAX })}&pageSize=10`);
      expect(last).toEqual({ ids: [], next: undefined });
      expect(await page(`pageToken=${bounded}&pageSize=0`)).toEqual({ ids: [], next: undefined });
    });

    it('apply filters and change-version bounds inside the range', async () => {
      const { next } = await page('limit=1');
      const thirds = await readAll(next!, 2, '&firstName=Third');
      expect(thirds).toEqual([ids[3], ids[6], ids[9]]);
    });
  });

  describe('GET {resource}/partitions', () => {
    async function partitions(query: string): Promise<string[]> {
      const response = await app.data('GET', `/ed-fi/students/partitions?${query}`);
      expect(response.status, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      return response.json<{ pageTokens: string[] }>().pageTokens;
    }

    it('answers one token for a collection smaller than five pages, open-ended', async () => {
      const [token, ...rest] = await partitions('');
      expect(rest).toEqual([]);
      expect(decodePageToken(token!)!.max).toBe(INT32_MAX);
      expect(await readAll(token!, 500)).toEqual(ids);
    });

    it('splits into at most `number` adjacent ranges with small partitions allowed, covering everything once', async () => {
      const tokens = await partitions('number=5&allowSmallPartitions=true');
      expect(tokens).toHaveLength(4);
      const ranges = tokens.map((token) => decodePageToken(token)!);
      for (let index = 1; index < ranges.length; index++) expect(ranges[index]!.min).toBe(ranges[index - 1]!.max + 1);
      expect(ranges[ranges.length - 1]!.max).toBe(INT32_MAX);
      const pages = await Promise.all(tokens.map((token) => readAll(token, 2)));
      expect(pages.map((partition) => partition.length)).toEqual([3, 3, 3, 3]);
      expect(pages.flat()).toEqual(ids);
    });

    it('applies filters and change-version bounds, and answers no tokens when nothing matches', async () => {
      const tokens = await partitions('number=2&allowSmallPartitions=true&firstName=Third');
      expect(tokens).toHaveLength(2);
      const thirds = (await Promise.all(tokens.map((token) => readAll(token, 500, '&firstName=Third')))).flat();
      expect(thirds).toEqual([ids[0], ids[3], ids[6], ids[9]]);
      expect(await partitions('firstName=Nobody')).toEqual([]);
      expect((await app.data('GET', '/ed-fi/students/partitions?minChangeVersion=999999999')).body).toBe(
        JSON.stringify({ pageTokens: [] }),
      );
    });

    it('refuses a number outside 1..200, and values that do not bind', async () => {
      for (const number of ['0', '201', '-3']) {
        expectProblem(
          await app.data('GET', `/ed-fi/students/partitions?number=${number}`, { headers: WITH_CORRELATION }),
          {
            detail: 'The request construction was invalid.',
            type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
            title: 'Parameter Validation Failed',
            status: 400,
            errors: ['Number of partitions must be between 1 and 200.'],
          },
        );
      }
      expectProblem(await app.data('GET', '/ed-fi/students/partitions?number=ten', { headers: WITH_CORRELATION }), {
        detail: "Data validation failed. See 'validationErrors' for details.",
        type: 'urn:ed-fi:api:bad-request:data-validation-failed',
        title: 'Data Validation Failed',
        status: 400,
        validationErrors: { '$.number': ["The value 'ten' is not valid for Number."] },
      });
    });

    it('answers 404 for an unknown resource', async () => {
      expectProblem(await app.data('GET', '/ed-fi/nothings/partitions', { headers: WITH_CORRELATION }), {
        detail: 'The specified data could not be found.',
        type: 'urn:ed-fi:api:not-found',
        title: 'Not Found',
        status: 404,
      });
    });
  });
});
