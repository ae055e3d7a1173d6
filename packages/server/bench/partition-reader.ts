// One reader process of the scale benchmark's partitioned read: reads the partitions whose tokens it is given to
// their end (pageToken + pageSize), starting when the parent writes a line, and prints the items read and its start
// and end (epoch ms), so the parent times the readers from the first start to the last end, process start-up aside.
// Args: <collection URL> <bearer token> <page token>...
import { createInterface } from 'node:readline';

const PAGE_SIZE = 500;
const [collection, bearer, ...pageTokens] = process.argv.slice(2);

async function readPartition(first: string): Promise<number> {
  let items = 0;
  for (let next: string | null = first; next !== null;) {
    const response = await fetch(`${collection}?pageToken=${encodeURIComponent(next)}&pageSize=${PAGE_SIZE}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    if (!response.ok) throw new Error(`page → ${response.status} ${await response.text()}`);
    items += ((await response.json()) as unknown[]).length;
    next = response.headers.get('next-page-token');
  }
  return items;
}

const now = () => performance.timeOrigin + performance.now();
process.stdout.write('ready\n');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const started = now();
let items = 0;
for (const pageToken of pageTokens) items += await readPartition(pageToken);
process.stdout.write(`${JSON.stringify({ items, started, ended: now() })}\n`);
process.exit(0);
