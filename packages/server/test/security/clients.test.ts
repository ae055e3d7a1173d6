import { describe, expect, it } from 'vitest';
import { authenticateClient, ClientCreationError, createClient } from '../../src/security/index.js';
import { MemorySecurityStore } from './support.js';

describe('createClient', () => {
  it('generates a long alphanumeric key and secret when none are given', async () => {
    const store = new MemorySecurityStore();
    const created = await createClient(store);
    expect(created.key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(created.secret).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(created.warnings).toEqual([]);
    expect(created.name).toBe(created.key);
    const stored = store.clients.get(created.key)!;
    expect(stored).toMatchObject({ key: created.key, active: true });
    expect(new Date(stored.createdAt).toISOString()).toBe(stored.createdAt);
  });

  it('stores a salted scrypt hash, never the secret', async () => {
    const store = new MemorySecurityStore();
    const secret = 'the-very-same-secret-for-two-clients';
    await createClient(store, { key: 'one', secret });
    await createClient(store, { key: 'two', secret });
    const [one, two] = [store.clients.get('one')!, store.clients.get('two')!];
    expect(JSON.stringify([...store.clients.values()])).not.toContain(secret);
    expect(one.secretHash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(one.secretHash).not.toBe(two.secretHash);
  });

  it('authenticates the right secret only', async () => {
    const store = new MemorySecurityStore();
    await createClient(store, { key: 'k', secret: 'correct-horse-battery-staple-000000', name: 'Vendor' });
    expect((await authenticateClient(store, 'k', 'correct-horse-battery-staple-000000'))?.name).toBe('Vendor');
    expect(await authenticateClient(store, 'k', 'correct-horse-battery-staple-000001')).toBeUndefined();
    expect(await authenticateClient(store, 'unknown', 'correct-horse-battery-staple-000000')).toBeUndefined();
  });

  it('warns about a short explicit secret or one with a colon, and still creates the client', async () => {
    const store = new MemorySecurityStore();
    const created = await createClient(store, { key: 'short', secret: 'abc:def' });
    expect(created.warnings).toHaveLength(2);
    expect(created.warnings[0]).toContain('7 characters');
    expect(store.clients.has('short')).toBe(true);
  });

  it('refuses a duplicate key, a blank key or secret, and a key with a colon', async () => {
    const store = new MemorySecurityStore();
    await createClient(store, { key: 'taken' });
    await expect(createClient(store, { key: 'taken' })).rejects.toThrow(ClientCreationError);
    await expect(createClient(store, { key: ' ' })).rejects.toThrow(/blank/);
    await expect(createClient(store, { key: 'a:b' })).rejects.toThrow(/':'/);
    await expect(createClient(store, { secret: '' })).rejects.toThrow(/blank/);
  });
});
