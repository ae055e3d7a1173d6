// Reads every item of a resource by paging GET, and compares documents across servers without server-assigned fields.
import type { SandboxServer } from './sandbox-server.js';

const PAGE_SIZE = 500;

export async function exportResource(sandbox: SandboxServer, resourcePath: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const { status, body } = await sandbox.get<Record<string, unknown>[]>(
      `/data/v3${resourcePath}?offset=${offset}&limit=${PAGE_SIZE}`,
    );
    if (status !== 200) throw new Error(`GET ${resourcePath} answered ${status}`);
    items.push(...body);
    if (body.length < PAGE_SIZE) return items;
  }
}

const SERVER_FIELDS = new Set(['id', '_etag', '_lastModifiedDate', 'link']);

function withoutServerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutServerFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SERVER_FIELDS.has(key))
      .map(([key, member]) => [key, withoutServerFields(member)]),
  );
}

/** The items as comparable, order-independent JSON texts. */
export function comparableItems(items: readonly unknown[]): string[] {
  return items.map((item) => JSON.stringify(withoutServerFields(item))).sort();
}
