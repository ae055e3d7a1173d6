// Any object implementing ContainerLike can stand in for the built-in container, e.g. a Map-backed one.

import { describe, expect, it } from 'vitest';
import {
  createToken,
  type ContainerLike,
  type InjectionToken,
  type ScopeLike,
} from '../../src/container/container-like.js';

/** A minimal adapter: values registered up front, plus per-scope provided values. */
class MapContainer implements ContainerLike {
  constructor(private readonly values: ReadonlyMap<InjectionToken, unknown>) {}

  get<T>(token: InjectionToken<T>): T {
    if (!this.values.has(token)) throw new Error(`Unknown token ${token.name}`);
    return this.values.get(token) as T;
  }

  createScope(): ScopeLike {
    const provided = new Map<InjectionToken, unknown>(this.values);
    return {
      get: <T>(token: InjectionToken<T>): T => new MapContainer(provided).get(token),
      provide: <T>(token: InjectionToken<T>, value: T): void => void provided.set(token, value),
    };
  }
}

const Greeting = createToken<string>('Greeting');
const UserName = createToken<string>('UserName');

/** What framework code does with a container: resolve through a request scope. */
function greet(container: ContainerLike, user: string): string {
  const scope = container.createScope?.() ?? container;
  (scope as ScopeLike).provide?.(UserName, user);
  return `${scope.get(Greeting)}, ${scope.get(UserName)}`;
}

describe('ContainerLike adapters', () => {
  it('works with a plain Map-backed implementation', () => {
    const container = new MapContainer(new Map([[Greeting, 'Hello']]));
    expect(greet(container, 'Ada')).toBe('Hello, Ada');
    expect(() => container.get(UserName)).toThrow('Unknown token UserName');
  });

  it('works with an object literal that has no scopes at all', () => {
    const values = new Map<InjectionToken, unknown>([
      [Greeting, 'Hi'],
      [UserName, 'anonymous'],
    ]);
    const container: ContainerLike = { get: <T>(token: InjectionToken<T>) => values.get(token) as T };
    expect(greet(container, 'ignored')).toBe('Hi, anonymous');
  });
});
