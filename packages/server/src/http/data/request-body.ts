// The body step of POST and PUT: a JSON media type is required (415), then the body is parsed (400 when malformed).
import { InvalidInput, UnsupportedMediaType, type RequestContext } from '@edfi-api/framework';
import { ApiProblem } from '../../api/index.js';
import { requireJsonContentType } from '../media-type.js';

const MALFORMED_JSON = 'Body payload contains invalid JSON.';

export async function jsonBodyOf(ctx: RequestContext<unknown>): Promise<unknown> {
  requireJsonContentType(ctx.headers);
  try {
    return await ctx.body();
  } catch (error) {
    // The media type is JSON, so whatever the framework's parser refuses is malformed JSON (or a JSON scalar).
    if (error instanceof InvalidInput) throw new ApiProblem('badRequest', { errors: [error.message] });
    if (error instanceof UnsupportedMediaType) throw new ApiProblem('badRequest', { errors: [MALFORMED_JSON] });
    throw error;
  }
}
