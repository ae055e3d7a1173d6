// Users in version 2.

import { route } from '@edfi-api/framework';

export const userById = route.get('/users/{int:id}', (ctx) => ({ id: ctx.params.id, version: 2 }));
