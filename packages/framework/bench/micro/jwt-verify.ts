// Micro-benchmark: the cost of one bearer JWT verification (µs, median of batches), with and without the verify cache.

import { createJwtVerifier, signToken } from '../../src/auth/jwt.js';

const HASH_KEY = 'bench-secret-bench-secret-bench-secret!';
const BATCH = 1000;

export interface JwtVerifyMeasurement {
  readonly usPerVerify: number;
}

/** Verifies the same HS256 token `iterations` times (in batches of 1000) and reports the median µs per verify. */
export function measureJwtVerify(iterations: number, cacheSize = 1000): JwtVerifyMeasurement {
  const verify = createJwtVerifier(HASH_KEY, { cacheSize });
  const token = signToken({ client_id: 'bench', scope: 'read write' }, { hashKey: HASH_KEY });
  const batches = Math.max(1, Math.floor(iterations / BATCH));
  const samples: number[] = [];
  for (let batch = 0; batch < batches; batch++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) verify(token);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / BATCH);
  }
  samples.sort((a, b) => a - b);
  return { usPerVerify: samples[Math.floor(samples.length / 2)]! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  measureJwtVerify(50_000);
  console.log('cached  ', measureJwtVerify(200_000).usPerVerify.toFixed(2), 'µs/verify');
  console.log('uncached', measureJwtVerify(200_000, 0).usPerVerify.toFixed(2), 'µs/verify');
}
