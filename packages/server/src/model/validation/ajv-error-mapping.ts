// Turns Ajv's errors on a canonical document into contract messages keyed by JSON path (`/a/0/b` → `$.a[0].b`):
// standard keywords take the message annotated next to them, Ed-Fi keywords carry theirs in `params.message`.
import type { ErrorObject } from 'ajv';
import { annotations, type CheckMessages } from './ajv-keywords.js';
import type { ValidationErrorsBuilder } from './validation-errors-builder.js';

function jsonPathOf(instancePath: string): string {
  let path = '$';
  for (const step of instancePath.split('/').slice(1)) path += /^\d+$/.test(step) ? `[${step}]` : `.${step}`;
  return path;
}

function annotation(schema: unknown, name: string): string | undefined {
  const value = (schema as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

function messagesOf(error: ErrorObject): CheckMessages {
  switch (error.keyword) {
    case 'required': {
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
      return annotation(
        properties?.[(error.params as { missingProperty: string }).missingProperty],
        annotations.missing,
      );
    }
    case 'minimum':
    case 'maximum':
      return annotation(error.parentSchema, annotations.range);
    case 'minItems':
      return annotation(error.parentSchema, annotations.minItems);
    default:
      return (error.params as { message?: CheckMessages }).message;
  }
}

function pathOf(error: ErrorObject): string {
  const path = jsonPathOf(error.instancePath);
  return error.keyword === 'required'
    ? `${path}.${(error.params as { missingProperty: string }).missingProperty}`
    : path;
}

/** Whether `path` lies inside one of the objects at `containers`. */
export function isWithinAny(containers: readonly string[], path: string): boolean {
  return containers.some((container) => path.startsWith(`${container}.`) || path.startsWith(`${container}[`));
}

/**
 * Adds the errors as contract messages. A partially supplied reference reports only the properties it misses, not its
 * members' own errors (as the ODS does); the paths of such references are returned.
 */
export function addAjvErrors(errors: readonly ErrorObject[], into: ValidationErrorsBuilder): string[] {
  const partialReferences = errors
    .filter((error) => error.keyword === 'fullyDefinedReference')
    .map((error) => jsonPathOf(error.instancePath));
  for (const error of errors) {
    const path = pathOf(error);
    if (isWithinAny(partialReferences, path)) continue;
    const found = messagesOf(error) ?? error.keyword;
    for (const message of Array.isArray(found) ? found : [found]) into.add(path, message);
  }
  return partialReferences;
}
