// JSON read as Newtonsoft's JsonTextReader reads request bodies for the ODS: trailing commas in objects and arrays,
// comments, single-quoted strings and unquoted property names are accepted; anything else fails with Newtonsoft's
// wording and the JSON path, line and position it was reading (contract §6.5). Used only for bodies JSON.parse refuses.

/** A body that cannot be read; `path` is Newtonsoft's (`schoolReference.schoolId`, `items[0]`, `` at the top). */
export class JsonReadError extends Error {
  override readonly name = 'JsonReadError';

  constructor(
    readonly path: string,
    reason: string,
    line: number,
    position: number,
  ) {
    super(`${reason} Path '${path}', line ${line}, position ${position}.`);
  }
}

/** A property name the framework refuses in any body (prototype pollution). */
export class ForbiddenPropertyError extends Error {
  override readonly name = 'ForbiddenPropertyError';
}

type Frame = { kind: 'object'; property: string | undefined } | { kind: 'array'; index: number };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const IDENTIFIER = /[A-Za-z_$][\w$]*/y;
const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class JsonTextReader {
  #index = 0;
  #line = 1;
  #lineStart = 0;
  readonly #frames: Frame[] = [];

  constructor(private readonly text: string) {}

  read(): unknown {
    const value = this.#value();
    this.#skipSpace();
    if (this.#index < this.text.length)
      this.#fail(`Additional text encountered after finished reading JSON content: ${this.#char()}.`);
    return value;
  }

  #char(): string {
    return this.text.charAt(this.#index);
  }

  #path(): string {
    let path = '';
    for (const frame of this.#frames) {
      if (frame.kind === 'array') path += frame.index >= 0 ? `[${frame.index}]` : '';
      else if (frame.property !== undefined) path += path === '' ? frame.property : `.${frame.property}`;
    }
    return path;
  }

  /** Fails on the character at the index (or the end): Newtonsoft's position counts the characters read of the line. */
  #fail(reason: string): never {
    if (this.#index < this.text.length) this.#index++;
    throw new JsonReadError(this.#path(), reason, this.#line, this.#index - this.#lineStart);
  }

  #newLine(at: number): void {
    this.#line++;
    this.#lineStart = at + 1;
  }

  /** Whitespace and comments. */
  #skipSpace(): void {
    const { text } = this;
    while (this.#index < text.length) {
      const char = text[this.#index]!;
      if (char === '\n' || (char === '\r' && text[this.#index + 1] !== '\n')) this.#newLine(this.#index);
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\uFEFF') this.#index++;
      else if (char === '/' && text[this.#index + 1] === '/') {
        while (this.#index < text.length && text[this.#index] !== '\n' && text[this.#index] !== '\r') this.#index++;
      } else if (char === '/' && text[this.#index + 1] === '*') {
        const end = text.indexOf('*/', this.#index + 2);
        if (end === -1) {
          this.#index = text.length;
          this.#fail('Unexpected end while parsing comment.');
        }
        for (let at = this.#index; at < end; at++) if (text[at] === '\n') this.#newLine(at);
        this.#index = end + 2;
      } else return;
    }
  }

  #value(): unknown {
    this.#skipSpace();
    const char = this.#char();
    if (char === '{') return this.#object();
    if (char === '[') return this.#array();
    if (char === '"' || char === "'") return this.#string(char);
    if (char === '-' || (char >= '0' && char <= '9')) return this.#number();
    for (const [literal, value] of LITERALS) {
      if (this.text.startsWith(literal, this.#index)) {
        this.#index += literal.length;
        return value;
      }
    }
    if (char === '') this.#fail('Unexpected end when reading JSON.');
    return this.#fail(`Unexpected character encountered while parsing value: ${char}.`);
  }

  #object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const frame: Frame = { kind: 'object', property: undefined };
    this.#members(frame, '}', 'Unexpected end when deserializing object.', () => {
      frame.property = this.#propertyName(this.#char());
      this.#skipSpace();
      if (this.#char() !== ':')
        this.#fail(`Invalid character after parsing property name. Expected ':' but got: ${this.#char()}.`);
      this.#index++;
      define(object, frame.property, this.#value());
    });
    return object;
  }

  #propertyName(char: string): string {
    if (char === '"' || char === "'") return this.#string(char);
    IDENTIFIER.lastIndex = this.#index;
    const match = IDENTIFIER.exec(this.text);
    if (match === null) this.#fail(`Invalid property identifier character: ${char}.`);
    this.#index += match[0].length;
    return match[0];
  }

  #array(): unknown[] {
    const array: unknown[] = [];
    const frame: Frame = { kind: 'array', index: -1 };
    this.#members(frame, ']', 'Unexpected end when deserializing array.', () => {
      frame.index++;
      array.push(this.#value());
    });
    return array;
  }

  /** The members of an object or the items of an array, up to `close`; a trailing comma passes, as in Newtonsoft. */
  #members(frame: Frame, close: '}' | ']', endOfInput: string, readMember: () => void): void {
    this.#frames.push(frame);
    this.#index++;
    for (;;) {
      this.#skipSpace();
      const char = this.#char();
      if (char === close) break;
      if (char === '') this.#fail(endOfInput);
      readMember();
      this.#skipSpace();
      const next = this.#char();
      if (next === ',') this.#index++;
      else if (next === close) break;
      else if (next === '') this.#fail(endOfInput);
      else this.#fail(`After parsing a value an unexpected character was encountered: ${next}.`);
    }
    this.#index++;
    this.#frames.pop();
  }

  #string(quote: string): string {
    const { text } = this;
    let value = '';
    let start = ++this.#index;
    for (;;) {
      const char = text[this.#index];
      if (char === undefined) this.#fail(`Unterminated string. Expected delimiter: ${quote}.`);
      if (char === quote) break;
      if (char === '\n') this.#newLine(this.#index);
      if (char !== '\\') {
        this.#index++;
        continue;
      }
      value += text.slice(start, this.#index);
      const escaped = text[this.#index + 1] ?? '';
      if (escaped === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(this.#index + 2, this.#index + 6))) {
        value += String.fromCharCode(parseInt(text.slice(this.#index + 2, this.#index + 6), 16));
        this.#index += 6;
      } else if (ESCAPES[escaped] !== undefined) {
        value += ESCAPES[escaped];
        this.#index += 2;
      } else {
        this.#index++;
        this.#fail(`Bad JSON escape sequence: \\${escaped}.`);
      }
      start = this.#index;
    }
    value += text.slice(start, this.#index);
    this.#index++;
    return value;
  }

  #number(): number {
    NUMBER.lastIndex = this.#index;
    const match = NUMBER.exec(this.text);
    const end = this.#index + (match?.[0].length ?? 0);
    const after = this.text.charAt(end);
    if (match === null || (after !== '' && !/[\s,\]}/]/.test(after))) {
      this.#index = end;
      this.#fail(`Unexpected character encountered while parsing number: ${match === null ? this.#char() : after}.`);
    }
    this.#index = end;
    return Number(match[0]);
  }
}

/** Sets a member as JSON.parse would, refusing the names the framework refuses. */
function define(object: Record<string, unknown>, name: string, value: unknown): void {
  const isPrototypeHolder =
    name === 'constructor' && value !== null && typeof value === 'object' && Object.hasOwn(value, 'prototype');
  if (name === '__proto__' || isPrototypeHolder) throw new ForbiddenPropertyError(name);
  object[name] = value;
}

/** Reads a body as Newtonsoft does; throws JsonReadError (or ForbiddenPropertyError) when it cannot. */
export function readLenientJson(text: string): unknown {
  return new JsonTextReader(text).read();
}
