// A mutable response object with the method names ported PHP handlers expect (setPayload, addHeader, …).

export class Payload {
  private payload: unknown;
  private statusCode: number;
  private readonly headers: Record<string, string>;

  constructor(payload: unknown = [], statusCode = 200, headers: Record<string, string> = {}) {
    this.payload = payload;
    this.statusCode = statusCode;
    this.headers = { ...headers };
  }

  static fromArray(payload: unknown, statusCode = 200, headers: Record<string, string> = {}): Payload {
    return new this(payload, statusCode, headers);
  }

  addHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  getHeaders(): Readonly<Record<string, string>> {
    return this.headers;
  }

  getStatusCode(): number {
    return this.statusCode;
  }

  setStatusCode(statusCode: number): this {
    this.statusCode = statusCode;
    return this;
  }

  getPayload(): unknown {
    return this.payload;
  }

  setPayload(payload: unknown): this {
    this.payload = payload;
    return this;
  }

  toJson(): string {
    return JSON.stringify(this.payload);
  }
}
