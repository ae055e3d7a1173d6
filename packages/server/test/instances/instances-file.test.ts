// The `--instances` file: what a valid one gives, and the message each mistake gets.
import { describe, expect, it } from 'vitest';
import { instancePath, parseInstancesConfig } from '../../src/instances/instances-file.js';

const STORE = 'sqlite::memory:';

describe('the instances file', () => {
  it('reads tenants and context values in the order of the context route', () => {
    const config = parseInstancesConfig({
      contextRoute: '{instanceId}/{schoolYearFromRoute:int}',
      instances: [
        { name: 'a', tenant: 'north', context: { schoolYearFromRoute: 2025, instanceId: '255901' }, store: STORE },
        { name: 'b', tenant: 'south', context: { instanceId: '255901', schoolYearFromRoute: '2025' }, store: STORE },
      ],
    });
    expect(config.multiTenant).toBe(true);
    expect(config.instances.map(instancePath)).toEqual(['/north/255901/2025', '/south/255901/2025']);
  });

  it.each([
    [{ instances: [] }, 'The instances file needs a non-empty list `instances`.'],
    [
      {
        instances: [
          { name: 'a', tenant: 't', store: STORE },
          { name: 'b', store: STORE },
        ],
      },
      'Either every instance names a tenant (multi-tenancy) or none does.',
    ],
    [{ instances: [{ name: 'a', tenant: 'no/slash', store: STORE }] }, "Instance 1's tenant 'no/slash' may only have"],
    [
      {
        instances: [
          { name: 'a', store: STORE },
          { name: 'b', store: STORE },
        ],
      },
      "Instance 'b' has the tenant and context of another one.",
    ],
    [
      {
        instances: [
          { name: 'a', tenant: 'x', store: STORE },
          { name: 'a', tenant: 'y', store: STORE },
        ],
      },
      "Two instances are named 'a'.",
    ],
    [{ contextRoute: '{year:min(2000)}', instances: [] }, 'The instances file needs'],
    [
      { contextRoute: '{year:min(2000)}', instances: [{ name: 'a', context: { year: 1 }, store: STORE }] },
      "The context route '{year:min(2000)}' has the constraint 'min(2000)': use int or range(min,max).",
    ],
    [
      { contextRoute: '{year}', instances: [{ name: 'a', context: { year: 1, district: 2 }, store: STORE }] },
      "Instance 'a' has context keys the contextRoute lacks: district.",
    ],
    [
      { instances: [{ name: 'a', context: { year: 1 }, store: STORE }] },
      "Instance 'a' has a context but the file sets no contextRoute.",
    ],
    [{ instances: [{ name: 'a' }] }, "Instance 1's store must be a non-empty string."],
  ])('refuses %j', (document, message) => {
    expect(() => parseInstancesConfig(document)).toThrow(message);
  });
});
