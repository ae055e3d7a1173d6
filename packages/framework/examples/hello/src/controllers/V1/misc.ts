// The rest of version 1, declared without decorators.

import { json, route } from '@edfi-api/framework';

export const item = route.get('/items/{ulid:id}', (ctx) => ({ id: ctx.params.id }));

export const whoami = route.get('/whoami', { auth: ['apiKey', 'basic', 'client'] }, (ctx) => ({
  scheme: ctx.auth.scheme,
  clientId: ctx.auth.clientId,
}));

export const echo = route.post('/echo', { auth: ['apiKey'] }, async (ctx) => json(await ctx.body(), { status: 201 }));

export const adminStats = route.get('/admin/stats', { auth: ['bearer'], scopes: ['admin'] }, () => ({ users: 2 }));

export const ping = route.get('/public/ping', { auth: ['none'] }, () => ({ pong: true }));
