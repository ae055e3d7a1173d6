// Container tokens the framework provides in every request scope.

import type { Principal } from '../types.js';
import { createToken } from '../container/container-like.js';

/** The authenticated caller of the current request. */
export const PrincipalToken = createToken<Principal>('Principal');
