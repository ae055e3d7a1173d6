// Compile-time inference of handler parameter types from a path template: '/users/{int:id}' gives { id: number }.

type ParamEntry<S extends string> = S extends `int:${infer Name}`
  ? { [K in Name]: number }
  : S extends `ulid:${infer Name}`
    ? { [K in Name]: string }
    : { [K in S]: string };

type Collect<P extends string> = P extends `${string}{${infer Param}}${infer Rest}`
  ? ParamEntry<Param> & Collect<Rest>
  : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The `params` object a handler receives for the path template `P`. */
export type ParamsOf<P extends string> = string extends P ? Record<string, string | number> : Simplify<Collect<P>>;
