// The seam between the framework and any dependency container (the built-in one, awilix, tsyringe, inversify, …).

/** A class that can be resolved; its dependencies are listed in `static inject` (see `Injectable`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = unknown> = abstract new (...args: any[]) => T;

/** A named token for values that are not classes (configuration, interfaces). */
export interface NamedToken<T> {
  readonly name: string;
  /** Phantom field carrying the token's value type; never set at run time. */
  readonly __type?: T;
}

export type InjectionToken<T = unknown> = Constructor<T> | NamedToken<T>;

export interface ContainerLike {
  get<T>(token: InjectionToken<T>): T;
  /** A child container for one request; request-scoped registrations live there. */
  createScope?(): ScopeLike;
}

export interface ScopeLike extends ContainerLike {
  /** Makes a value available to this scope only (the framework provides the request's Principal and Token). */
  provide?<T>(token: InjectionToken<T>, value: T): void;
  dispose?(): void | Promise<void>;
}

export function createToken<T>(name: string): NamedToken<T> {
  return Object.freeze({ name });
}
