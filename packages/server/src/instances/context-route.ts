// The ODS context route template (contract §9.3), e.g. `{schoolYearFromRoute:range(2000,2099)}` or
// `{instanceId}/{schoolYearFromRoute:int}`: one `{key}` or `{key:constraint}` per path segment, the constraints `int`
// and `range(min,max)` of ASP.NET routing. It names the context values an instance is found by.

export interface ContextSegment {
  readonly key: string;
  /** Whether a path segment may carry this key's value (its constraint holds). */
  accepts(value: string): boolean;
}

export interface ContextRoute {
  /** The template as configured. */
  readonly template: string;
  readonly segments: readonly ContextSegment[];
}

const SEGMENT = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::(.+))?\}$/;
const RANGE = /^range\((-?[0-9]+),(-?[0-9]+)\)$/;
const INTEGER = /^-?[0-9]+$/;

function constraintCheck(constraint: string | undefined, template: string): (value: string) => boolean {
  if (constraint === undefined) return () => true;
  if (constraint === 'int') return (value) => INTEGER.test(value);
  const range = RANGE.exec(constraint);
  if (range === null) {
    throw new Error(`The context route '${template}' has the constraint '${constraint}': use int or range(min,max).`);
  }
  const [min, max] = [Number(range[1]), Number(range[2])];
  return (value) => INTEGER.test(value) && Number(value) >= min && Number(value) <= max;
}

export function parseContextRoute(template: string): ContextRoute {
  const segments = template
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map((text) => {
      const match = SEGMENT.exec(text);
      if (match === null) {
        throw new Error(`The context route '${template}' must be {key} or {key:constraint} segments ('${text}').`);
      }
      return { key: match[1]!, accepts: constraintCheck(match[2], template) };
    });
  const keys = new Set(segments.map((segment) => segment.key));
  if (keys.size !== segments.length) throw new Error(`The context route '${template}' repeats a key.`);
  return { template, segments };
}

/** The route as discovery shows it where the request carries no values: `{key}` per segment. */
export function contextPlaceholders(route: ContextRoute): string[] {
  return route.segments.map((segment) => `{${segment.key}}`);
}
