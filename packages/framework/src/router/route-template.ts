// Parses a route template such as `/users/{int:id}/files/{name}.json` into segments, resolving each parameter's
// check from its type prefix or its OpenAPI declaration, and rejecting malformed templates at start-up.

import { ConfigurationError } from '../errors.js';
import type { ParameterDeclaration } from '../types.js';
import { compileParameterPattern } from './parameter-pattern.js';
import {
  affixedMatcher,
  integerMatcher,
  patternMatcher,
  plainMatcher,
  ulidMatcher,
  type SegmentMatcher,
} from './segment-matchers.js';

export interface StaticSegment {
  readonly kind: 'static';
  /** The segment lower-cased, as static parts match case-insensitively. */
  readonly key: string;
}

export interface ParamSegment {
  readonly kind: 'param';
  readonly name: string;
  readonly matcher: SegmentMatcher;
}

export type TemplateSegment = StaticSegment | ParamSegment;

const PARAM_NAME = /^[A-Za-z_$][\w$.-]*$/;

/** `label` names the route (method, template, source) in error messages. */
export function parseTemplate(
  template: string,
  declarations: readonly ParameterDeclaration[],
  label: string,
): TemplateSegment[] {
  if (!template.startsWith('/')) throw new ConfigurationError(`${label}: a route path must start with "/".`);
  const declared = indexDeclarations(declarations, label);
  const rawSegments = template.slice(1).split('/');
  const segments = rawSegments.map((raw, index) => {
    // Only the last segment may be empty: it is the trailing slash of a path like `/users/`.
    if (raw === '' && index < rawSegments.length - 1) {
      throw new ConfigurationError(`${label}: a route path must not contain an empty segment ("//").`);
    }
    return parseSegment(raw, declared, label);
  });
  const names = segments.flatMap((segment) => (segment.kind === 'param' ? [segment.name] : []));
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new ConfigurationError(`${label}: the parameter {${repeated}} appears twice.`);
  const undeclared = [...declared.keys()].filter((name) => !names.includes(name));
  if (undeclared.length > 0) {
    throw new ConfigurationError(`${label}: declared parameter(s) ${undeclared.join(', ')} are not in the path.`);
  }
  return segments;
}

function indexDeclarations(
  declarations: readonly ParameterDeclaration[],
  label: string,
): Map<string, ParameterDeclaration> {
  const byName = new Map<string, ParameterDeclaration>();
  for (const declaration of declarations) {
    if (byName.has(declaration.name)) {
      throw new ConfigurationError(`${label}: the parameter ${declaration.name} is declared twice.`);
    }
    byName.set(declaration.name, declaration);
  }
  return byName;
}

function parseSegment(raw: string, declared: Map<string, ParameterDeclaration>, label: string): TemplateSegment {
  const open = raw.indexOf('{');
  const close = raw.indexOf('}');
  if (open === -1 && close === -1) return { kind: 'static', key: raw.toLowerCase() };
  if (open === -1 || close < open || raw.indexOf('{', open + 1) !== -1 || raw.indexOf('}', close + 1) !== -1) {
    throw new ConfigurationError(`${label}: the segment "${raw}" must hold exactly one {parameter}.`);
  }
  const inner = raw.slice(open + 1, close);
  const colon = inner.indexOf(':');
  const type = colon === -1 ? undefined : inner.slice(0, colon);
  const name = inner.slice(colon + 1);
  if (!PARAM_NAME.test(name)) throw new ConfigurationError(`${label}: "{${inner}}" has an invalid parameter name.`);
  const check = matcherFor(type, declared.get(name), `${label}, parameter ${name}`);
  const prefix = raw.slice(0, open);
  const suffix = raw.slice(close + 1);
  const matcher = prefix === '' && suffix === '' ? check : affixedMatcher(prefix, suffix, check);
  return { kind: 'param', name, matcher };
}

function matcherFor(
  type: string | undefined,
  declaration: ParameterDeclaration | undefined,
  owner: string,
): SegmentMatcher {
  const schema = declaration?.schema;
  switch (type) {
    case 'int':
      if (schema !== undefined && (schema.type !== 'integer' || schema.pattern !== undefined)) {
        throw new ConfigurationError(
          `${owner}: {int:…} conflicts with its declared schema; declare type integer only.`,
        );
      }
      return integerMatcher;
    case 'ulid':
      if (schema !== undefined && (schema.type !== 'string' || schema.pattern !== undefined)) {
        throw new ConfigurationError(
          `${owner}: {ulid:…} conflicts with its declared schema; declare type string only.`,
        );
      }
      return ulidMatcher;
    case undefined:
      if (schema?.type === 'integer') {
        if (schema.pattern !== undefined) {
          throw new ConfigurationError(`${owner}: a pattern applies to string parameters, not to integers.`);
        }
        return integerMatcher;
      }
      return schema?.pattern === undefined
        ? plainMatcher
        : patternMatcher(compileParameterPattern(schema.pattern, owner));
    default:
      throw new ConfigurationError(`${owner}: unknown parameter type "${type}" (use int, ulid or an OpenAPI pattern).`);
  }
}
