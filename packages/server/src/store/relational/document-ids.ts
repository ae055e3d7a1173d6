// API ids for new documents: UUIDv7 as 32 lowercase hex digits (the ODS `ToString("N")` form). The leading
// millisecond timestamp keeps inserts at the right edge of the uuid index instead of scattering them.
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
const pool = Buffer.allocUnsafe(ID_BYTES * 256);
let poolOffset = pool.length;

export function newDocumentId(nowMs: number = Date.now()): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, (poolOffset += ID_BYTES));
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex');
}
