// Opt-in API documentation page: Swagger UI (from the swagger-ui-dist package, served by this process, no CDN) over
// the application's OpenAPI documents. Add the routes to a version like any others; they are public.
import { raw } from '../http/api-response.js';
import type { RequestContext } from '../types.js';
import { route } from '../routes/route.js';
import type { RouteDefinition } from '../routes/route-definition.js';
import { NotFound } from '../errors.js';
import { DOCS_PAGE_SCRIPT, DOCS_PAGE_SCRIPT_NAME, docsPageHtml, type DocsDocument } from './docs-page.js';
import { SWAGGER_UI_FILES, swaggerUiAssetLoader, type StaticAsset } from './swagger-ui-assets.js';

export type { DocsDocument } from './docs-page.js';

export interface DocsPageOptions {
  /** The page's route path; default `/docs`. Its assets are served below it. */
  readonly path?: string;
  /** The page title; default `API documentation`. */
  readonly title?: string;
  /**
   * The OpenAPI documents, the first one shown first. A URL starting with `/` is a route path of the same API (the
   * part of the request URL before the route path is put in front), any other is used as given.
   */
  readonly documents: readonly DocsDocument[] | ((ctx: RequestContext) => readonly DocsDocument[]);
}

const PUBLIC = { auth: ['none'] } as const;
const ASSET_CACHING = 'public, max-age=86400';
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/** The part of the request's URL path in front of the route path: where the API is mounted. */
function mountPrefixOf(ctx: RequestContext): string {
  const queryStart = ctx.raw.url.indexOf('?');
  const pathname = queryStart === -1 ? ctx.raw.url : ctx.raw.url.slice(0, queryStart);
  return pathname.slice(0, Math.max(0, pathname.length - ctx.path.length));
}

export function docsPageRoutes(options: DocsPageOptions): RouteDefinition[] {
  const path = (options.path ?? '/docs').replace(/\/+$/, '');
  const title = options.title ?? 'API documentation';
  const fileOf = docsFileLoader();
  const { documents: listed } = options;
  const documentsOf = typeof listed === 'function' ? listed : (): readonly DocsDocument[] => listed;

  const page = route.get(path, { ...PUBLIC, summary: 'API documentation page' }, (ctx) => {
    const prefix = mountPrefixOf(ctx);
    const documents = documentsOf(ctx).map(({ name, url }) => ({
      name,
      url: url.startsWith('/') || ABSOLUTE_URL.test(url) ? url : `${prefix}/${url}`,
    }));
    const html = docsPageHtml({ title, pagePath: prefix + path, documents });
    return raw(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' } });
  });
  const file = route.get(`${path}/{file}`, { ...PUBLIC, summary: 'A file of the API documentation page' }, (ctx) => {
    const { contentType, body } = fileOf(ctx.params.file);
    return raw(body, { headers: { 'Content-Type': contentType, 'Cache-Control': ASSET_CACHING } });
  });
  return [page, file];
}

/** The page's script, or a Swagger UI file; 404 for any other name. */
function docsFileLoader(): (name: string) => StaticAsset {
  const swaggerUi = swaggerUiAssetLoader();
  const script: StaticAsset = {
    contentType: 'text/javascript; charset=utf-8',
    body: Buffer.from(DOCS_PAGE_SCRIPT),
  };
  return (name) => {
    if (name === DOCS_PAGE_SCRIPT_NAME) return script;
    if (Object.hasOwn(SWAGGER_UI_FILES, name)) return swaggerUi(name);
    throw new NotFound(`No file ${name} here.`);
  };
}
