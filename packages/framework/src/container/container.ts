// The built-in typed container: singleton, scoped and transient registrations, autowiring, cycle and scope-leak checks.

import { ConfigurationError } from '../errors.js';
import type { Constructor, ContainerLike, InjectionToken, ScopeLike } from './container-like.js';
import { disposeInReverse, hasDisposeHook } from './dispose-instances.js';
import { injectList, type Injectable } from './injectable.js';
import { describePath, describeToken } from './token-description.js';

export type Lifetime = 'singleton' | 'scoped' | 'transient';

export interface RegisterOptions {
  /** Defaults to `singleton`; ignored for `useValue`, which is always shared. */
  readonly lifetime?: Lifetime;
}

export type Provider<T, C extends Constructor<T> = Constructor<T>> =
  | { readonly useClass: C & Injectable<C> }
  | { readonly useValue: T }
  | { readonly useFactory: (container: ContainerLike) => T };

interface Registration {
  readonly lifetime: Lifetime;
  readonly build: (resolver: ContainerLike) => unknown;
  /** Whether the container created the value, and so runs its disposal hook. */
  readonly owned: boolean;
}

/** Per-scope state; the maps and list are created on first use so a scope costs one small object. */
interface ScopeState {
  instances?: Map<InjectionToken, unknown>;
  provided?: Map<InjectionToken, unknown>;
  owned?: unknown[];
}

interface Frame {
  readonly token: InjectionToken;
  readonly lifetime: Lifetime;
}

type ResolveInScope = (token: InjectionToken, state: ScopeState) => unknown;

function classRegistration(Class: Constructor, lifetime: Lifetime): Registration {
  const tokens = injectList(Class);
  return {
    lifetime,
    owned: true,
    build: (resolver) =>
      Reflect.construct(
        Class,
        tokens.map((token) => resolver.get(token)),
      ) as unknown,
  };
}

function toRegistration<T, C extends Constructor<T>>(provider: Provider<T, C>, lifetime: Lifetime): Registration {
  if ('useClass' in provider) return classRegistration(provider.useClass, lifetime);
  if ('useFactory' in provider) return { lifetime, owned: true, build: provider.useFactory };
  const value = provider.useValue;
  return { lifetime: 'singleton', owned: false, build: () => value };
}

/** Classes with `static inject` or a zero-argument constructor can be resolved without registration. */
function isAutowirable(token: InjectionToken): token is Constructor {
  return typeof token === 'function' && (Array.isArray((token as { inject?: unknown }).inject) || token.length === 0);
}

function pathText(path: readonly Frame[], token: InjectionToken): string {
  return describePath([...path.map((frame) => frame.token), token]);
}

export class Scope implements ScopeLike {
  readonly #resolve: ResolveInScope;
  readonly #state: ScopeState = {};

  constructor(resolve: ResolveInScope) {
    this.#resolve = resolve;
  }

  get<T>(token: InjectionToken<T>): T {
    return this.#resolve(token, this.#state) as T;
  }

  /** Makes `value` the answer for `token` in this scope only; it is never disposed by the container. */
  provide<T>(token: InjectionToken<T>, value: T): void {
    (this.#state.provided ??= new Map()).set(token, value);
  }

  async dispose(): Promise<void> {
    const owned = this.#state.owned ?? [];
    this.#state.owned = undefined;
    this.#state.instances = undefined;
    await disposeInReverse(owned);
  }
}

export class Container implements ContainerLike {
  readonly #registrations = new Map<InjectionToken, Registration>();
  readonly #singletons = new Map<InjectionToken, unknown>();
  #owned: unknown[] = [];
  readonly #resolveInScope: ResolveInScope = (token, state) => this.#resolve(token, state, []);

  register<T, C extends Constructor<T> = Constructor<T>>(
    token: InjectionToken<T>,
    provider: Provider<T, C>,
    options: RegisterOptions = {},
  ): this {
    this.#registrations.set(token, toRegistration(provider, options.lifetime ?? 'singleton'));
    return this;
  }

  registerSingleton<C extends Constructor>(Class: C & Injectable<C>): this {
    this.#registrations.set(Class, classRegistration(Class, 'singleton'));
    return this;
  }

  registerScoped<C extends Constructor>(Class: C & Injectable<C>): this {
    this.#registrations.set(Class, classRegistration(Class, 'scoped'));
    return this;
  }

  registerTransient<C extends Constructor>(Class: C & Injectable<C>): this {
    this.#registrations.set(Class, classRegistration(Class, 'transient'));
    return this;
  }

  registerValue<T>(token: InjectionToken<T>, value: T): this {
    return this.register(token, { useValue: value });
  }

  get<T>(token: InjectionToken<T>): T {
    return this.#resolve(token, undefined, []) as T;
  }

  createScope(): Scope {
    return new Scope(this.#resolveInScope);
  }

  /** Runs the disposal hooks of the singletons and root-owned transients this container created, newest first. */
  async dispose(): Promise<void> {
    const owned = this.#owned;
    this.#owned = [];
    this.#singletons.clear();
    await disposeInReverse(owned);
  }

  #resolve(token: InjectionToken, scope: ScopeState | undefined, path: Frame[]): unknown {
    if (scope?.provided?.has(token)) {
      this.#assertNoSingletonCaptures(token, path);
      return scope.provided.get(token);
    }
    const registration = this.#registrations.get(token) ?? this.#autowire(token, path);
    const cache = this.#cacheFor(token, registration.lifetime, scope, path);
    if (cache?.has(token)) return cache.get(token);
    if (path.some((frame) => frame.token === token)) {
      throw new ConfigurationError(`Circular dependency: ${pathText(path, token)}.`);
    }

    path.push({ token, lifetime: registration.lifetime });
    let value: unknown;
    try {
      value = registration.build({
        get: <D>(dependency: InjectionToken<D>) => this.#resolve(dependency, scope, path) as D,
      });
    } finally {
      path.pop();
    }
    cache?.set(token, value);
    if (registration.owned && hasDisposeHook(value)) this.#ownerList(registration.lifetime, scope, path).push(value);
    return value;
  }

  #autowire(token: InjectionToken, path: readonly Frame[]): Registration {
    if (!isAutowirable(token)) {
      const context = path.length > 0 ? ` (resolving ${pathText(path, token)})` : '';
      const hint =
        typeof token === 'function' ? '; its constructor takes arguments but it has no static inject list' : '';
      throw new ConfigurationError(`No registration for "${describeToken(token)}"${context}${hint}.`);
    }
    const registration = classRegistration(token, 'singleton');
    this.#registrations.set(token, registration);
    return registration;
  }

  #cacheFor(
    token: InjectionToken,
    lifetime: Lifetime,
    scope: ScopeState | undefined,
    path: readonly Frame[],
  ): Map<InjectionToken, unknown> | undefined {
    if (lifetime === 'singleton') return this.#singletons;
    if (lifetime === 'transient') return undefined;
    this.#assertNoSingletonCaptures(token, path);
    if (scope === undefined) {
      throw new ConfigurationError(
        `"${describeToken(token)}" is scoped; resolve it from a scope (container.createScope()), not from the root container.`,
      );
    }
    return (scope.instances ??= new Map());
  }

  /** A singleton outlives every scope, so it must not hold a scoped value (directly or through transients). */
  #assertNoSingletonCaptures(token: InjectionToken, path: readonly Frame[]): void {
    const singleton = path.find((frame) => frame.lifetime === 'singleton');
    if (singleton !== undefined) {
      throw new ConfigurationError(
        `Singleton "${describeToken(singleton.token)}" depends on scoped "${describeToken(token)}" (${pathText(path, token)}).`,
      );
    }
  }

  /** Transients built for a singleton live as long as it does, so the root container owns them. */
  #ownerList(lifetime: Lifetime, scope: ScopeState | undefined, path: readonly Frame[]): unknown[] {
    const rootOwned = lifetime === 'singleton' || scope === undefined || path.some((f) => f.lifetime === 'singleton');
    return rootOwned ? this.#owned : (scope.owned ??= []);
  }
}
