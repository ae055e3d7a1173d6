// Human-readable names for tokens and resolution paths, used in container error messages.

import type { InjectionToken } from './container-like.js';

export function describeToken(token: InjectionToken): string {
  return token.name || '<anonymous>';
}

/** `A -> B -> A`. */
export function describePath(tokens: readonly InjectionToken[]): string {
  return tokens.map(describeToken).join(' -> ');
}
