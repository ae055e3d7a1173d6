// Named ownership tokens through the store API on each store: an application's own token, a token given by name
// (shared by every client given that name), further accessible tokens, and none for a client without either.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { describeEachStore } from '../../support/each-store.js';
import { client, sisApplication } from './admin-records-suite.js';

describeEachStore('ownership tokens', (stores) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await stores.newSpec());
  });
  afterEach(() => store.close());

  it('gives each application a token of its own, shared by its clients', async () => {
    await store.createClient(client('a1'), sisApplication);
    await store.createClient(client('a2'), sisApplication);
    await store.createClient(client('b1'), { ...sisApplication, applicationName: 'Other' });
    const [a1, a2, b1] = await Promise.all(['a1', 'a2', 'b1'].map((key) => store.findClientOwnership(key)));
    expect(a1).toEqual({ ownershipTokenId: a1!.ownershipTokenId, accessibleOwnershipTokenIds: [a1!.ownershipTokenId] });
    expect(a2).toEqual(a1);
    expect(b1!.ownershipTokenId).not.toBe(a1!.ownershipTokenId);
    await store.createClient(client('none'));
    expect(await store.findClientOwnership('none')).toBeUndefined();
    expect(await store.findClientOwnership('unknown')).toBeUndefined();
  });

  it('stamps clients given one token name alike, and lets a client access further tokens', async () => {
    await store.createClient(client('s1'), sisApplication, { creator: 'District SIS' });
    await store.createClient(
      client('s2'),
      { ...sisApplication, applicationName: 'Other' },
      { creator: 'District SIS' },
    );
    await store.createClient(
      client('reader'),
      { ...sisApplication, applicationName: 'Reader' },
      {
        accessible: ['District SIS', 'Nobody Yet'],
      },
    );
    const [s1, s2, reader] = await Promise.all(['s1', 's2', 'reader'].map((key) => store.findClientOwnership(key)));
    expect(s2).toEqual(s1);
    expect(reader!.accessibleOwnershipTokenIds).toHaveLength(3);
    expect(reader!.accessibleOwnershipTokenIds[0]).toBe(reader!.ownershipTokenId);
    expect(reader!.accessibleOwnershipTokenIds).toContain(s1!.ownershipTokenId);
    const application = await store.findClientOwnership('s1');
    expect(application!.ownershipTokenId).not.toBe(reader!.ownershipTokenId);
  });

  it("lists each client's tokens by name", async () => {
    await store.createClient(client('s1'), sisApplication, { creator: 'District SIS', accessible: ['State', 'Audit'] });
    await store.createClient(client('app'), { ...sisApplication, applicationName: 'Other' });
    await store.createClient(client('none'));
    const listed = new Map(
      (await store.listClientDetails(Date.now())).map((each) => [each.client.key, each.ownershipTokens]),
    );
    expect(Object.fromEntries(listed)).toEqual({
      s1: { creator: 'District SIS', accessible: ['Audit', 'State'] },
      app: { creator: expect.stringMatching(/^application \d+$/), accessible: [] },
      none: { creator: null, accessible: [] },
    });
  });
});
