// Behaviour of the built-in container: lifetimes, scopes, autowiring, error paths and disposal.

import { describe, expect, it } from 'vitest';
import { Container } from '../../src/container/container.js';
import { createToken } from '../../src/container/container-like.js';
import { ConfigurationError } from '../../src/errors.js';

class Db {
  readonly id = Math.random();
}

class Logger {
  readonly lines: string[] = [];
}

class UserService {
  static inject = [Db, Logger] as const;
  constructor(
    readonly db: Db,
    readonly logger: Logger,
  ) {}
}

const RequestId = createToken<string>('RequestId');

class RequestLog {
  static inject = [RequestId] as const;
  constructor(readonly requestId: string) {}
}

describe('lifetimes', () => {
  it('shares a singleton across the root and every scope', () => {
    const container = new Container().registerSingleton(Db);
    expect(container.get(Db)).toBe(container.get(Db));
    expect(container.createScope().get(Db)).toBe(container.get(Db));
  });

  it('builds a new transient on every resolution', () => {
    const container = new Container().registerTransient(Db);
    expect(container.get(Db)).not.toBe(container.get(Db));
  });

  it('shares a scoped instance within one scope only', () => {
    const container = new Container().registerScoped(Db);
    const first = container.createScope();
    const second = container.createScope();
    expect(first.get(Db)).toBe(first.get(Db));
    expect(first.get(Db)).not.toBe(second.get(Db));
  });

  it('refuses a scoped registration resolved from the root container', () => {
    const container = new Container().registerScoped(Db);
    expect(() => container.get(Db)).toThrow(/"Db" is scoped; resolve it from a scope/);
  });

  it('injects dependencies listed in static inject, in order', () => {
    const container = new Container().registerSingleton(Db).registerSingleton(Logger).registerSingleton(UserService);
    const service = container.get(UserService);
    expect(service.db).toBe(container.get(Db));
    expect(service.logger).toBe(container.get(Logger));
  });
});

describe('providers', () => {
  it('binds an abstract token to an implementation class', () => {
    abstract class Clock {
      abstract now(): number;
    }
    class FixedClock extends Clock {
      now(): number {
        return 42;
      }
    }
    const container = new Container().register(Clock, { useClass: FixedClock });
    expect(container.get(Clock).now()).toBe(42);
  });

  it('returns registered values as they are', () => {
    const config = { url: 'postgres://db' };
    const Config = createToken<typeof config>('Config');
    expect(new Container().registerValue(Config, config).get(Config)).toBe(config);
  });

  it('calls factories with a resolver, honouring the lifetime', () => {
    const Greeting = createToken<string>('Greeting');
    let calls = 0;
    const container = new Container()
      .registerValue(RequestId, 'r-1')
      .register(Greeting, { useFactory: (c) => `hello ${c.get(RequestId)} #${++calls}` }, { lifetime: 'transient' });
    expect(container.get(Greeting)).toBe('hello r-1 #1');
    expect(container.get(Greeting)).toBe('hello r-1 #2');
  });
});

describe('scopes', () => {
  it('makes provided values visible to that scope only', () => {
    const container = new Container().register(RequestLog, { useClass: RequestLog }, { lifetime: 'scoped' });
    const scope = container.createScope();
    scope.provide(RequestId, 'abc');
    expect(scope.get(RequestLog).requestId).toBe('abc');
    expect(() => container.createScope().get(RequestId)).toThrow(/No registration for "RequestId"/);
  });

  it('lets a provided value win over a registration', () => {
    const container = new Container().registerValue(RequestId, 'default');
    const scope = container.createScope();
    scope.provide(RequestId, 'request');
    expect(scope.get(RequestId)).toBe('request');
    expect(container.get(RequestId)).toBe('default');
  });
});

describe('autowiring', () => {
  it('resolves unregistered classes with static inject or no constructor arguments as singletons', () => {
    class Controller {
      static inject = [UserService] as const;
      constructor(readonly users: UserService) {}
    }
    const container = new Container();
    const controller = container.get(Controller);
    expect(controller).toBe(container.get(Controller));
    expect(controller.users.db).toBe(container.get(Db));
  });

  it('names the token and the resolution path for a missing named token', () => {
    const Secret = createToken<string>('Secret');
    class Signer {
      static inject = [Secret] as const;
      constructor(readonly secret: string) {}
    }
    class TokenController {
      static inject = [Signer] as const;
      constructor(readonly signer: Signer) {}
    }
    expect(() => new Container().get(TokenController)).toThrow(
      'No registration for "Secret" (resolving TokenController -> Signer -> Secret).',
    );
  });

  it('refuses a class whose constructor takes arguments without static inject', () => {
    class Needy {
      constructor(readonly db: Db) {}
    }
    expect(() => new Container().get(Needy)).toThrow(/"Needy".*no static inject list/);
  });

  it('reports an inject list hole left by a circular import', () => {
    class Broken {
      static inject = [undefined];
    }
    expect(() => new Container().get(Broken)).toThrow('Broken.inject[0] is undefined; is there a circular import?');
  });
});

describe('dependency checks', () => {
  it('detects cycles and prints the path', () => {
    const A = createToken<unknown>('A');
    const B = createToken<unknown>('B');
    const container = new Container()
      .register(A, { useFactory: (c) => c.get(B) })
      .register(B, { useFactory: (c) => c.get(A) }, { lifetime: 'transient' });
    expect(() => container.get(A)).toThrow(new ConfigurationError('Circular dependency: A -> B -> A.'));
  });

  it('refuses a singleton that depends on a scoped registration, naming both', () => {
    const container = new Container().registerScoped(Db).registerSingleton(Logger).registerSingleton(UserService);
    expect(() => container.createScope().get(UserService)).toThrow(
      'Singleton "UserService" depends on scoped "Db" (UserService -> Db).',
    );
  });

  it('also catches the leak through a transient and through a provided value', () => {
    class Middle {
      static inject = [RequestId] as const;
      constructor(readonly requestId: string) {}
    }
    class Top {
      static inject = [Middle] as const;
      constructor(readonly middle: Middle) {}
    }
    const container = new Container().registerTransient(Middle);
    const scope = container.createScope();
    scope.provide(RequestId, 'r');
    expect(() => scope.get(Top)).toThrow('Singleton "Top" depends on scoped "RequestId" (Top -> Middle -> RequestId).');
  });
});

describe('disposal', () => {
  function tracked(log: string[]) {
    class First {
      dispose(): void {
        log.push('First');
      }
    }
    class Second {
      static inject = [First] as const;
      constructor(readonly first: First) {}
      async [Symbol.asyncDispose](): Promise<void> {
        log.push('Second');
      }
    }
    return { First, Second };
  }

  it('disposes singletons in reverse creation order', async () => {
    const log: string[] = [];
    const { Second } = tracked(log);
    const container = new Container();
    container.get(Second);
    await container.dispose();
    expect(log).toEqual(['Second', 'First']);
  });

  it('disposes scoped and transient instances with their scope, and never provided or registered values', async () => {
    const log: string[] = [];
    const { First, Second } = tracked(log);
    const Value = createToken<{ dispose(): void }>('Value');
    const container = new Container()
      .registerScoped(First)
      .registerTransient(Second)
      .registerValue(Value, { dispose: () => log.push('Value') });
    const scope = container.createScope();
    scope.provide(RequestId, 'r');
    scope.get(Second);
    scope.get(Value);
    await scope.dispose();
    expect(log).toEqual(['Second', 'First']);
    await container.dispose();
    expect(log).toEqual(['Second', 'First']);
  });

  it('runs every hook even when one fails, then rethrows', async () => {
    const log: string[] = [];
    class Failing {
      dispose(): void {
        throw new Error('boom');
      }
    }
    class Fine {
      static inject = [Failing] as const;
      constructor(readonly failing: Failing) {}
      dispose(): void {
        log.push('Fine');
      }
    }
    const container = new Container();
    container.get(Fine);
    await expect(container.dispose()).rejects.toThrow('boom');
    expect(log).toEqual(['Fine']);
  });
});
