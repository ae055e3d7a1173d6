// Turns a raw path segment into a parameter value: percent-decoded, and only when it contains a `%`.

import { InvalidInput } from '../errors.js';

export function decodeSegment(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    throw new InvalidInput('Malformed percent-encoding in path.', { cause: error });
  }
}
