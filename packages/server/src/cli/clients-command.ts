// `edfi-api clients create`: adds an API client to a store and prints its credentials once.
import { createClient, type NewClientOptions } from '../security/index.js';
import { openStoreCreatingFolder } from './store-location.js';

export interface CreateClientCommandOptions extends NewClientOptions {
  readonly store: string;
}

export async function createClientCommand(
  options: CreateClientCommandOptions,
  print: (text: string) => void,
): Promise<void> {
  const store = await openStoreCreatingFolder(options.store);
  try {
    const created = await createClient(store, options);
    for (const warning of created.warnings) print(`Warning: ${warning}`);
    print(`Created client '${created.name}'.`);
    print(`Key:    ${created.key}`);
    if (options.secret === undefined)
      print(`Secret: ${created.secret}   (generated; it is stored hashed and not shown again)`);
  } finally {
    await store.close();
  }
}
