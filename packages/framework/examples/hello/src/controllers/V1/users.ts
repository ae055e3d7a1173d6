// Users in version 1, declared with standard decorators; the static /users/search wins over /users/{name}.

import { Get, type RequestContext } from '@edfi-api/framework';

export class UsersController {
  @Get('/users/{int:id}')
  byId(ctx: RequestContext<{ id: number }>) {
    return { id: ctx.params.id, version: 1 };
  }

  @Get('/users/{name}')
  byName(ctx: RequestContext<{ name: string }>) {
    return { name: ctx.params.name };
  }

  @Get('/users/search')
  search(ctx: RequestContext) {
    return { query: ctx.query.q ?? '' };
  }
}
