// The `{id}` of item routes: GET treats a non-GUID as an unknown route (404); PUT and DELETE bind it (400).
import type { ValidationErrors } from '../model/validation/index.js';
import { ApiProblem } from './problems.js';
import { parseResourceId } from './resource-id.js';

/** For GET: the ODS route constraint does not match, so the routing 404 answers. */
export function readableIdOf(routeId: string): string {
  const id = parseResourceId(routeId);
  if (id === undefined) throw new ApiProblem('notFound', { raisedBeforeController: true });
  return id;
}

/**
 * For PUT and DELETE: the id binds like any action parameter, so a non-GUID fails model binding, reported together
 * with what binding the body found (an empty PUT body).
 */
export function routeIdOf(routeId: string, bodyBindingErrors: ValidationErrors = {}): string {
  const id = parseResourceId(routeId);
  if (id === undefined) {
    throw new ApiProblem('dataValidationFailed', {
      validationErrors: { ...bodyBindingErrors, '$.id': [`The value '${routeId}' is not valid for id.`] },
    });
  }
  return id;
}
