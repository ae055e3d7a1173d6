// The part of the WHATWG fetch API the HTTP target uses, so tests can route requests into an in-process server.
// No abort signal: requests in flight are left to finish (or time out) when a load stops.

export interface FetchRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type FetchLike = (url: string, request: FetchRequest) => Promise<FetchResponse>;
