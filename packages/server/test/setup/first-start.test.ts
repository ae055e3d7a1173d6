import { describe, expect, it } from 'vitest';
import { getModelRegistry } from '../../src/model/index.js';
import { prepareFirstStart } from '../../src/setup/first-start.js';
import { openStore } from '../../src/store/index.js';

describe('the sandbox client of a first start', () => {
  it("belongs to the 'Sandbox' application: claim set Ed-Fi Sandbox, the sandbox namespaces, Grand Bend", async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const firstStart = await prepareFirstStart(store, getModelRegistry(), 'none');
      expect(firstStart?.sandbox).toMatchObject({
        name: 'Sandbox',
        vendor: 'Sandbox',
        application: 'Sandbox',
        claimSet: 'Ed-Fi Sandbox',
        educationOrganizationIds: [255901],
        namespacePrefixes: ['uri://ed-fi.org', 'uri://gbisd.edu', 'uri://tpdm.ed-fi.org'],
      });
      expect((await store.findClientApplication(firstStart!.sandbox.key))?.claimSetName).toBe('Ed-Fi Sandbox');
      expect(await prepareFirstStart(store, getModelRegistry(), 'none')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('gets the education organizations it is given instead', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const firstStart = await prepareFirstStart(store, getModelRegistry(), 'none', [867530, 867531]);
      expect(firstStart?.sandbox.educationOrganizationIds).toEqual([867530, 867531]);
    } finally {
      await store.close();
    }
  });
});
