// The body step of POST and PUT: a JSON media type is required (415), then the body is parsed (400 when malformed).
// What JSON.parse refuses is read again as Newtonsoft reads it: trailing commas pass, and a body that still cannot be
// read is reported at the JSON path where reading stopped (contract §6.5).
import { InvalidInput, UnsupportedMediaType, type RequestContext } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import { requireJsonContentType } from '../media-type.js';
import { ForbiddenPropertyError, JsonReadError, readLenientJson } from './lenient-json.js';

const FORBIDDEN_PROPERTY = 'Body payload contains a forbidden property name.';
const NOT_A_CONTAINER = 'Body payload must be a JSON object or array.';

function unreadable(error: JsonReadError): ApiProblem {
  if (error.path === '') return new ApiProblem('badRequest', { errors: [error.message] });
  return new ApiProblem('dataValidationFailed', { validationErrors: { [`$.${error.path}`]: [error.message] } });
}

/** Reads what the framework's strict parser refused. */
function readLeniently(raw: Buffer): unknown {
  let value: unknown;
  try {
    value = readLenientJson(raw.toString('utf8'));
  } catch (error) {
    if (error instanceof JsonReadError) throw unreadable(error);
    if (error instanceof ForbiddenPropertyError) throw new ApiProblem('badRequest', { errors: [FORBIDDEN_PROPERTY] });
    throw error;
  }
  if (value === null || typeof value !== 'object') throw new ApiProblem('badRequest', { errors: [NOT_A_CONTAINER] });
  return value;
}

export async function jsonBodyOf(ctx: RequestContext<unknown>): Promise<unknown> {
  requireJsonContentType(ctx.headers);
  try {
    return await ctx.body();
  } catch (error) {
    // The media type is one of the ODS's JSON types, so whatever the framework's parser refuses is read again.
    if (error instanceof InvalidInput || error instanceof UnsupportedMediaType)
      return readLeniently(await ctx.rawBody());
    throw error;
  }
}
