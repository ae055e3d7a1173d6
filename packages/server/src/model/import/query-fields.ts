// The GET-by-example parameters of a resource as the ODS accepts them: its `…GetByExample` properties, which are the
// derived model's root-table fields plus what the resource inherits (`schools?nameOfInstitution=`).
import type { JsonPath, PropertyShape } from '../types.js';
import { compareText, sortedText } from './ordering.js';

export interface QueryFieldSources {
  where: string;
  resourceName: string;
  isDescriptor: boolean;
  /** The ODS's `…GetByExample` property names. */
  parameters: readonly string[] | undefined;
  /** Root-table fields of the derived model (parameter name → document paths). */
  rootTableFields: Record<string, JsonPath[]>;
  shape: PropertyShape;
}

/**
 * Each ODS parameter maps to the root-table field of that name or, when inherited, to the root member of that name
 * (both case-insensitively). A descriptor's surrogate `{Descriptor}Id` is left out: the API never shows it.
 */
export function odsQueryFields(sources: QueryFieldSources): Record<string, JsonPath[]> {
  const { where, parameters, rootTableFields, shape } = sources;
  if (parameters === undefined) throw new Error(`${where}: no GetByExample class`);
  const byLowerName = new Map<string, [string, JsonPath[]]>();
  for (const name of Object.keys(shape.properties ?? {})) byLowerName.set(name.toLowerCase(), [name, [`$.${name}`]]);
  for (const [name, paths] of Object.entries(rootTableFields)) byLowerName.set(name.toLowerCase(), [name, paths]);
  const accepted = new Set(parameters.map((parameter) => parameter.toLowerCase()));
  const unlisted = Object.keys(rootTableFields).filter((name) => !accepted.has(name.toLowerCase()));
  if (unlisted.length > 0) throw new Error(`${where}: query fields ${unlisted.join()} are not GetByExample parameters`);
  const fields: [string, JsonPath[]][] = [];
  for (const parameter of parameters) {
    if (sources.isDescriptor && parameter === `${sources.resourceName}Id`) continue;
    const field = byLowerName.get(parameter.toLowerCase());
    if (field === undefined) throw new Error(`${where}: GetByExample parameter ${parameter} matches no field`);
    fields.push([field[0], sortedText(field[1])]);
  }
  return Object.fromEntries(fields.sort(([a], [b]) => compareText(a, b)));
}
