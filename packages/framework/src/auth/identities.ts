// Compile time only: the identity each authentication scheme hands handlers as `ctx.identity`, read from the return
// types of the server's bearer verifier and client repository.

import type { AuthScheme } from '../types.js';
import type { Token } from './token.js';

/** The `ctx.identity` type per scheme. */
export type IdentityMap = { readonly [S in AuthScheme]: unknown };

/** Every scheme's identity unknown: routes declared without the server's options. */
export type UnknownIdentities = { readonly [S in AuthScheme]: S extends 'none' ? undefined : unknown };

type Returned<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** The identity one result carries: `{ identity }` as declared, a Token itself, none for `false` (a rejection). */
type IdentityIn<R> = R extends { readonly identity: infer I }
  ? I
  : R extends Token
    ? Token
    : R extends false
      ? never
      : undefined;

type RepositoryIdentity<O, Method extends string> = O extends { readonly clientRepository: infer R }
  ? R extends { readonly [K in Method]?: infer F }
    ? IdentityIn<Returned<NonNullable<F>>>
    : never
  : never;

/** The identities of a server configured with options of type `O` (the JWT verifier of `hashKey` gives the Token). */
export type IdentitiesOf<O> = {
  readonly bearer: O extends { readonly bearerVerifier?: infer V }
    ? IdentityIn<Returned<NonNullable<V>>> | (undefined extends V ? Token : never)
    : Token;
  readonly apiKey: RepositoryIdentity<O, 'validateApiKey'>;
  readonly basic: RepositoryIdentity<O, 'validate'>;
  readonly client: RepositoryIdentity<O, 'validate'>;
  readonly none: undefined;
};

/** The schemes of routes that declare none: the options' `defaultAuth`, else bearer. */
export type DefaultAuthOf<O> = O extends { readonly defaultAuth: infer D extends readonly AuthScheme[] }
  ? D
  : readonly ['bearer'];
