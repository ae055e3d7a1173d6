// The docs page's own HTML and start-up script: Swagger UI over the application's OpenAPI documents, one selectable
// at a time, with "Try it out" on. The page's settings travel as JSON inside the HTML, so the script is static.

export interface DocsDocument {
  /** The name shown in the document selector. */
  readonly name: string;
  readonly url: string;
}

export interface DocsPageSettings {
  readonly title: string;
  /** The page's own URL path; its assets are below it. */
  readonly pagePath: string;
  readonly documents: readonly DocsDocument[];
}

const htmlEscapes: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (char) => htmlEscapes[char]!);

/** JSON safe inside a script element: no `<` can close it. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function docsPageHtml(settings: DocsPageSettings): string {
  const asset = (name: string): string => escapeHtml(`${settings.pagePath}/${name}`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(settings.title)}</title>`,
    `<link rel="stylesheet" href="${asset('swagger-ui.css')}">`,
    `<link rel="icon" type="image/png" sizes="32x32" href="${asset('favicon-32x32.png')}">`,
    `<link rel="icon" type="image/png" sizes="16x16" href="${asset('favicon-16x16.png')}">`,
    '</head>',
    '<body>',
    '<div id="swagger-ui"></div>',
    `<script id="docs-settings" type="application/json">${scriptJson(settings)}</script>`,
    `<script src="${asset('swagger-ui-bundle.js')}"></script>`,
    `<script src="${asset('swagger-ui-standalone-preset.js')}"></script>`,
    `<script src="${asset(DOCS_PAGE_SCRIPT_NAME)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export const DOCS_PAGE_SCRIPT_NAME = 'docs-page.js';

/**
 * Starts Swagger UI with the settings of the page (runs in the browser). Operations start collapsed under their tags,
 * with a filter box, so a document of thousands of operations opens quickly.
 */
export const DOCS_PAGE_SCRIPT = `'use strict';
(function () {
  var settings = JSON.parse(document.getElementById('docs-settings').textContent);
  window.ui = SwaggerUIBundle({
    urls: settings.documents,
    'urls.primaryName': settings.documents[0] && settings.documents[0].name,
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    tryItOutEnabled: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
})();
`;
