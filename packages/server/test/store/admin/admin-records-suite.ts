// The administrative records as every store keeps them: vendors, applications, clients and tokens.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplicationDefinition, Store } from '../../../src/store/index.js';
import type { StoreFactory, StoreUnderTest } from '../conformance.js';

export const client = (key: string) => ({
  key,
  name: `Client ${key}`,
  secretHash: 'salt$hash',
  active: true,
  createdAt: 'now',
});

export const sisApplication: ApplicationDefinition = {
  vendorName: 'Grand Bend',
  namespacePrefixes: ['uri://gbisd.edu', 'uri://ed-fi.org'],
  applicationName: 'SIS',
  claimSetName: 'SIS Vendor',
  educationOrganizationIds: [255901001, 255901],
  profileNames: ['Profile-B', 'Profile-A'],
};

/** The administrative records through the Store API; `factory` makes a new, empty, opened store per test. */
export function describeAdminRecords(name: string, factory: StoreFactory): void {
  describe(`administrative records: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: Store;
    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterEach(() => subject.dispose());

    it('creates a vendor and an application with a client, and joins them with the next client', async () => {
      await store.createClient(client('k1'), sisApplication);
      await store.createClient(client('k2'), {
        ...sisApplication,
        claimSetName: 'ignored for an existing application',
      });
      const application = await store.findApplication('Grand Bend', 'SIS');
      expect(application).toEqual({
        applicationId: expect.any(Number),
        vendorName: 'Grand Bend',
        namespacePrefixes: ['uri://ed-fi.org', 'uri://gbisd.edu'],
        applicationName: 'SIS',
        claimSetName: 'SIS Vendor',
        educationOrganizationIds: [255901, 255901001],
        profileNames: ['Profile-A', 'Profile-B'],
      });
      expect(await store.findClientApplication('k1')).toEqual(application);
      expect(await store.findClientApplication('k2')).toEqual(application);
      expect(await store.findVendorNamespacePrefixes('Grand Bend')).toEqual(['uri://ed-fi.org', 'uri://gbisd.edu']);
      expect(await store.findVendorNamespacePrefixes('Nobody')).toBeUndefined();
      expect(await store.findApplication('Grand Bend', 'Other')).toBeUndefined();
    });

    it('adds an application to an existing vendor, which keeps its prefixes', async () => {
      await store.createClient(client('k1'), sisApplication);
      await store.createClient(client('k2'), {
        ...sisApplication,
        applicationName: 'Roster',
        namespacePrefixes: ['uri://x'],
      });
      expect((await store.findClientApplication('k2'))?.namespacePrefixes).toEqual([
        'uri://ed-fi.org',
        'uri://gbisd.edu',
      ]);
    });

    it('keeps a client created without an application without one', async () => {
      await store.createClient(client('k1'));
      expect(await store.findClient('k1')).toEqual(client('k1'));
      expect(await store.findClientApplication('k1')).toBeUndefined();
      expect(await store.findClientApplication('unknown')).toBeUndefined();
    });

    it('lists client details with live token counts', async () => {
      await store.createClient(client('b'), sisApplication);
      await store.createClient(client('a'));
      await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'b', expiresAt: 2000 }, { now: 1000 });
      await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'b', expiresAt: 3000 }, { now: 1000 });
      const details = await store.listClientDetails(2500);
      expect(details.map((each) => [each.client.key, each.application?.applicationName, each.liveTokens])).toEqual([
        ['a', undefined, 0],
        ['b', 'SIS', 1],
      ]);
    });

    it('saves tokens within a per-client limit, purging expired ones first', async () => {
      await store.createClient(client('k1'));
      const limit = { perClientLimit: 2, now: 1000 };
      expect(await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 1500 }, limit)).toBe(true);
      expect(await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'k1', expiresAt: 5000 }, limit)).toBe(true);
      expect(await store.saveAccessToken({ tokenHash: 'h3', clientKey: 'k1', expiresAt: 5000 }, limit)).toBe(false);
      expect(await store.findAccessToken('h3', 1000)).toBeUndefined();
      expect(
        await store.saveAccessToken({ tokenHash: 'h4', clientKey: 'k1', expiresAt: 5000 }, { ...limit, now: 1500 }),
      ).toBe(true);
      expect(await store.findAccessToken('h1', 0)).toBeUndefined();
    });

    it('keeps the scope of a token', async () => {
      await store.createClient(client('k1'), sisApplication);
      await store.saveAccessToken({
        tokenHash: 'h1',
        clientKey: 'k1',
        expiresAt: 5000,
        educationOrganizationId: 255901,
      });
      expect(await store.findAccessToken('h1', 1000)).toEqual({
        tokenHash: 'h1',
        clientKey: 'k1',
        expiresAt: 5000,
        educationOrganizationId: 255901,
      });
    });

    it('revokes a client: deactivated, tokens deleted; undefined for an unknown key', async () => {
      await store.createClient(client('k1'));
      await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
      await store.saveAccessToken({ tokenHash: 'h2', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
      expect(await store.revokeClient('k1')).toBe(2);
      expect((await store.findClient('k1'))?.active).toBe(false);
      expect(await store.findAccessToken('h1', 1000)).toBeUndefined();
      expect(await store.revokeClient('k1')).toBe(0);
      expect(await store.revokeClient('unknown')).toBeUndefined();
    });

    it('finds no token of an inactive client', async () => {
      await store.createClient({ ...client('k1'), active: false });
      await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'k1', expiresAt: 5000 }, { now: 0 });
      expect(await store.findAccessToken('h1', 1000)).toBeUndefined();
    });
  });
}
