// Compile-time checks of `static inject` lists; tsc type-checks this file, so each @ts-expect-error must stay an error.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { Container } from '../../src/container/container.js';
import { createToken } from '../../src/container/container-like.js';
import { injectable } from '../../src/container/injectable.js';

class Db {
  query(): number {
    return 1;
  }
}

class Logger {
  log(message: string): string {
    return message;
  }
}

const Config = createToken<{ url: string }>('Config');

class Repository {
  static inject = [Db, Logger, Config] as const;
  constructor(
    readonly db: Db,
    readonly logger: Logger,
    readonly config: { url: string },
  ) {}
}

class Misordered {
  static inject = [Logger, Db] as const;
  constructor(
    readonly db: Db,
    readonly logger: Logger,
  ) {}
}

class TooShort {
  static inject = [Db] as const;
  constructor(
    readonly db: Db,
    readonly logger: Logger,
  ) {}
}

class Undeclared {
  constructor(readonly db: Db) {}
}

describe('static inject type checks', () => {
  it('accepts matching lists and zero-argument classes', () => {
    expect(injectable(Repository)).toBe(Repository);
    expect(injectable(Db)).toBe(Db);
  });

  it('rejects wrong lists at compile time', () => {
    // @ts-expect-error Logger is not a Db: the list is in the wrong order.
    injectable(Misordered);
    // @ts-expect-error the constructor needs a Logger the list does not provide.
    injectable(TooShort);
    // @ts-expect-error a constructor with parameters needs a static inject list.
    injectable(Undeclared);
    const container = new Container();
    // @ts-expect-error registration applies the same check.
    container.registerSingleton(Misordered);
    // @ts-expect-error the implementation must produce the token's type.
    container.register(Db, { useClass: Logger });
    // @ts-expect-error a value must have the token's type.
    container.registerValue(Config, { url: 1 });
    expect(true).toBe(true);
  });

  it('infers resolved types from tokens', () => {
    const container = new Container().registerValue(Config, { url: 'x' });
    expectTypeOf(container.get(Config)).toEqualTypeOf<{ url: string }>();
    expectTypeOf(container.get(Repository)).toEqualTypeOf<Repository>();
  });
});
