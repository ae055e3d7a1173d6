import { describe, expect, it } from 'vitest';
import { RequestPool } from '../../src/load/run/request-pool.js';

describe('the request pool', () => {
  it('never runs more tasks at once than its limit, and idle() waits for all of them', async () => {
    const pool = new RequestPool(3);
    let running = 0;
    let highest = 0;
    let finished = 0;
    for (let index = 0; index < 20; index++) {
      await pool.start(async () => {
        running++;
        highest = Math.max(highest, running);
        await new Promise((resolve) => setTimeout(resolve, 1 + (index % 4)));
        running--;
        finished++;
      });
    }
    await pool.idle();
    expect(highest).toBe(3);
    expect(finished).toBe(20);
  });

  it('refuses a limit below one', () => {
    expect(() => new RequestPool(0)).toThrow(/at least|≥ 1/);
  });
});
