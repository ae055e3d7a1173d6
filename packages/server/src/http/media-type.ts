// Request media types (contract §6.3): JSON bodies are `application/json`, `text/json` or `application/*+json`;
// anything else, or no Content-Type on a write, is 415.
import type { IncomingHttpHeaders } from 'node:http';
import { ApiProblem } from '../api/index.js';

const JSON_MEDIA_TYPE = /^(?:application\/json|text\/json|application\/[^/;\s]+\+json)$/;

function mediaTypeOf(contentType: string): string {
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

export function unsupportedMediaType(headers: IncomingHttpHeaders): ApiProblem {
  const message =
    (headers['content-type'] ?? '').trim() === ''
      ? "The 'Content-Type' header is missing."
      : "The value specified in the 'Content-Type' header is not supported by this host.";
  return new ApiProblem('unsupportedMediaType', { errors: [message], raisedBeforeController: true });
}

/** Throws the 415 problem unless the request declares a JSON body. */
export function requireJsonContentType(headers: IncomingHttpHeaders): void {
  const contentType = headers['content-type'];
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(mediaTypeOf(contentType))) {
    throw unsupportedMediaType(headers);
  }
}
