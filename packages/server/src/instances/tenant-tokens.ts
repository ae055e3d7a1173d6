// The clients and tokens of a tenant, spread over its instances' stores: a client is bound to an instance by being
// stored in that instance's store (as the ODS's admin database associates ApiClient with OdsInstance). A token is
// issued for the client's active bindings, saved in each bound store, so every instance checks its own store only.
import type { ApiClient, ClientAdministration, Store, TokenStore } from '../store/store.js';

export type TenantTokenStore = Pick<ClientAdministration, 'findClient' | 'findClientApplication'> &
  Pick<TokenStore, 'saveAccessToken' | 'findAccessToken'>;

type TokenRoles = Pick<Store, keyof TenantTokenStore>;

async function bindingsOf(stores: readonly TokenRoles[], key: string) {
  const clients = await Promise.all(stores.map((store) => store.findClient(key)));
  return stores.flatMap((store, index) => {
    const client = clients[index];
    return client === undefined ? [] : [{ store, client }];
  });
}

export function tenantTokenStore(stores: readonly TokenRoles[]): TenantTokenStore {
  async function activeBindings(key: string) {
    return (await bindingsOf(stores, key)).filter(({ client }) => client.active);
  }

  return {
    /** The client as its first active binding stores it (every binding has the same key and secret). */
    async findClient(key): Promise<ApiClient | undefined> {
      const bindings = await bindingsOf(stores, key);
      return (bindings.find(({ client }) => client.active) ?? bindings[0])?.client;
    },
    async findClientApplication(key) {
      const [first] = await activeBindings(key);
      return first?.store.findClientApplication(key);
    },
    /** Saved in every store where the client is active; refused when one of them refuses it (the client's limit). */
    async saveAccessToken(token, options) {
      const bindings = await activeBindings(token.clientKey);
      const saved = await Promise.all(bindings.map(({ store }) => store.saveAccessToken(token, options)));
      return saved.length > 0 && saved.every(Boolean);
    },
    async findAccessToken(tokenHash, now) {
      const found = await Promise.all(stores.map((store) => store.findAccessToken(tokenHash, now)));
      return found.find((record) => record !== undefined);
    },
  };
}
