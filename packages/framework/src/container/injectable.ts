// Compile-time link between a class's `static inject` list and its constructor parameters (the typed-inject technique).

import type { Constructor, InjectionToken, NamedToken } from './container-like.js';
import { ConfigurationError } from '../errors.js';

/** The value a token resolves to. Classes are tested first: a class also has a `name`, so it would match `NamedToken`. */
export type TokenValue<Token> = Token extends Constructor<infer T> ? T : Token extends NamedToken<infer T> ? T : never;

/** Constructor arguments produced by resolving each token of an `inject` list in order. */
export type ResolvedArgs<Tokens extends readonly unknown[]> = { -readonly [K in keyof Tokens]: TokenValue<Tokens[K]> };

/**
 * The constructor shape `C` must have: parameters matching `static inject` when present, no parameters otherwise.
 * Use it as `C & Injectable<C>` so a wrong, misordered or short list is a compile error.
 */
export type Injectable<C extends Constructor> = C extends {
  readonly inject: infer Tokens extends readonly InjectionToken[];
}
  ? abstract new (...args: ResolvedArgs<Tokens>) => InstanceType<C>
  : abstract new () => InstanceType<C>;

/** Returns `Class` unchanged; calling it checks the class's `static inject` list against its constructor. */
export function injectable<C extends Constructor>(Class: C & Injectable<C>): C {
  return Class;
}

/** The tokens a class declares in `static inject` (none when absent), checked for holes left by circular imports. */
export function injectList(Class: Constructor): readonly InjectionToken[] {
  const inject: unknown = (Class as { inject?: unknown }).inject;
  if (!Array.isArray(inject)) return [];
  inject.forEach((token: unknown, index) => {
    const isToken = typeof token === 'function' || (typeof token === 'object' && token !== null && 'name' in token);
    if (!isToken) {
      throw new ConfigurationError(`${Class.name}.inject[${index}] is ${String(token)}; is there a circular import?`);
    }
  });
  return inject as readonly InjectionToken[];
}
