// `minChangeVersion` and `maxChangeVersion` (contract §4.3): inclusive bounds on the current change version, bound as
// int64 values; either may be left out.
import type { ChangeVersionRange } from '../store/store.js';
import type { QueryParameters } from './data-request.js';
import { bindInt64, type QueryBindingErrors } from './query-binding.js';

/** Query names this step consumes (lower-case); they are never filters. */
export const CHANGE_VERSION_PARAMETER_NAMES: ReadonlySet<string> = new Set(['minchangeversion', 'maxchangeversion']);

export function bindChangeVersions(query: QueryParameters, errors: QueryBindingErrors): ChangeVersionRange | undefined {
  const min = errors.bind('minChangeVersion', query.get('minchangeversion'), bindInt64);
  const max = errors.bind('maxChangeVersion', query.get('maxchangeversion'), bindInt64);
  if (min === undefined && max === undefined) return undefined;
  return { min, max };
}
