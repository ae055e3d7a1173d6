// Claim-set administration (CLI and admin API): import from a file's text, list the shipped and imported claim sets,
// export, delete; and the name a client's claim set resolves to, shipped or imported.
import { getModelRegistry, type ClaimsFile } from '../../model/index.js';
import type { ClaimSetAdministration, ClaimSetDefinition } from '../../store/store.js';
import { claimSetCatalogue, claimSetNameKey } from '../claims/index.js';
import { claimSetsOfJson, readClaimSetJson } from './claim-set-json.js';
import type { DraftClaimSet, DraftImport } from './claim-set-drafts.js';
import { draftOf } from './claim-set-export.js';
import { validateClaimSets } from './claim-set-validation.js';
import { readSecurityMetadataXml } from './ods-security-xml.js';

export type ClaimSetStore = Pick<
  ClaimSetAdministration,
  'saveClaimSets' | 'findClaimSet' | 'listClaimSets' | 'deleteClaimSet'
>;

/** A claim-set command that cannot be done: the kind says which (the admin API answers 404, 400 or 409). */
export class ClaimSetAdministrationError extends Error {
  override readonly name = 'ClaimSetAdministrationError';

  constructor(
    readonly kind: 'unknown' | 'shipped' | 'in-use',
    message: string,
  ) {
    super(message);
  }
}

export interface ClaimSetSummary {
  readonly name: string;
  /** False for the claim sets of the model's claims file. */
  readonly imported: boolean;
  /** Resource claims the claim set grants actions on. */
  readonly resourceClaims: number;
}

/** The ODS security-metadata XML when the text starts with `<`, else our JSON. */
export function readClaimSetFile(text: string): DraftImport {
  return text.trimStart().startsWith('<') ? readSecurityMetadataXml(text) : readClaimSetJson(text);
}

/** Validates every claim set, then stores them all at once (replacing imported ones of the same names). */
export async function importClaimSets(store: ClaimSetStore, draft: DraftImport): Promise<ClaimSetDefinition[]> {
  const definitions = validateClaimSets(draft, await store.listClaimSets());
  await store.saveClaimSets(definitions);
  return definitions;
}

/** Our JSON, as the admin API receives it. */
export function importClaimSetsJson(store: ClaimSetStore, body: unknown): Promise<ClaimSetDefinition[]> {
  return importClaimSets(store, { claimSets: claimSetsOfJson(body), defaultAuthorizations: [] });
}

function shippedDefinition(name: string, claims: ClaimsFile): ClaimSetDefinition {
  const { hierarchy } = claimSetCatalogue(claims);
  const resourceClaims: ClaimSetDefinition['resourceClaims'] = Object.fromEntries(
    [...hierarchy.claimUris].flatMap((uri) => {
      const grant = hierarchy.lineageOf(uri)[0]!.claimSets?.[name];
      return grant === undefined ? [] : [[uri, grant]];
    }),
  );
  return { name, resourceClaims };
}

export async function listAllClaimSets(store: ClaimSetStore): Promise<ClaimSetSummary[]> {
  const claims = getModelRegistry().claims;
  const shipped = claimSetCatalogue(claims).names.map((name) => ({
    definition: shippedDefinition(name, claims),
    imported: false,
  }));
  const imported = (await store.listClaimSets()).map((definition) => ({ definition, imported: true }));
  return [...shipped, ...imported]
    .map(({ definition, imported: isImported }) => ({
      name: definition.name,
      imported: isImported,
      resourceClaims: Object.keys(definition.resourceClaims).length,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The stored name of the imported claim set `name` spells (either form, any case), or undefined. */
export async function resolveImportedClaimSet(
  store: Pick<ClaimSetAdministration, 'listClaimSets'>,
  name: string,
): Promise<string | undefined> {
  const key = claimSetNameKey(name);
  return (await store.listClaimSets()).find((claimSet) => claimSetNameKey(claimSet.name) === key)?.name;
}

async function definitionNamed(store: ClaimSetStore, name: string): Promise<ClaimSetDefinition> {
  const claims = getModelRegistry().claims;
  const shipped = claimSetCatalogue(claims).resolve(name);
  if (shipped !== undefined) return shippedDefinition(shipped, claims);
  const imported = await resolveImportedClaimSet(store, name);
  const definition = imported === undefined ? undefined : await store.findClaimSet(imported);
  if (definition === undefined) throw new ClaimSetAdministrationError('unknown', `No claim set is named '${name}'.`);
  return definition;
}

/** The named claim sets (shipped ones too, to copy under a new name), or every imported one when none is named. */
export async function exportClaimSets(store: ClaimSetStore, names: readonly string[] = []): Promise<DraftClaimSet[]> {
  const definitions =
    names.length === 0
      ? await store.listClaimSets()
      : await Promise.all(names.map((name) => definitionNamed(store, name)));
  const { actions } = getModelRegistry().claims;
  return definitions.map((definition) => draftOf(definition, actions));
}

/** Deletes an imported claim set no application holds; returns its stored name. */
export async function deleteImportedClaimSet(store: ClaimSetStore, name: string): Promise<string> {
  const shipped = claimSetCatalogue().resolve(name);
  if (shipped !== undefined) {
    throw new ClaimSetAdministrationError('shipped', `'${shipped}' is a shipped claim set and cannot be deleted.`);
  }
  const stored = await resolveImportedClaimSet(store, name);
  const outcome = stored === undefined ? 'unknown' : await store.deleteClaimSet(stored);
  if (outcome === 'unknown')
    throw new ClaimSetAdministrationError('unknown', `No imported claim set is named '${name}'.`);
  if (outcome === 'in-use') {
    throw new ClaimSetAdministrationError(
      'in-use',
      `The claim set '${stored}' is assigned to applications; give their clients another claim set first ` +
        '(clients update --claim-set).',
    );
  }
  return stored!;
}
