import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Layer boundaries of packages/server/src (README, Architecture): `http → api → model/security → store`, with setup,
// load, export and cli composing them. Each folder names the folders it must not import: outside store/ only the Store
// interface (store/store.js, store/index.js) is reachable, testing/ (generated documents) serves only tests and
// benchmarks, and each database driver stays inside its store implementation (tests, benchmarks and the model
// importer, which replays the ODS security scripts, may open databases directly).
const SERVER_SRC = 'packages/server/src';
const STORE_IMPLEMENTATIONS = ['sqlite', 'postgres', 'relational'];
const STORE_INTERNALS = STORE_IMPLEMENTATIONS.map((implementation) => `store/${implementation}`);
const DRIVERS = { sqlite: '^better-sqlite3(/|$)', postgres: '^pg(-[\\w-]+)?(/|$)' };
const ALL_DRIVERS = Object.values(DRIVERS);

const forbiddenFolders = {
  model: [
    'api',
    'cli',
    'composites',
    'export',
    'http',
    'instances',
    'load',
    'profiles',
    'security',
    'setup',
    'store',
    'testing',
  ],
  store: [
    'api',
    'cli',
    'composites',
    'export',
    'http',
    'instances',
    'load',
    'profiles',
    'security',
    'setup',
    'testing',
  ],
  api: [
    'cli',
    'composites',
    'export',
    'http',
    'instances',
    'load',
    'profiles',
    'security',
    'setup',
    'testing',
    ...STORE_INTERNALS,
  ],
  composites: [
    'cli',
    'export',
    'http',
    'instances',
    'load',
    'profiles',
    'security',
    'setup',
    'testing',
    ...STORE_INTERNALS,
  ],
  profiles: [
    'cli',
    'composites',
    'export',
    'http',
    'instances',
    'load',
    'security',
    'setup',
    'testing',
    ...STORE_INTERNALS,
  ],
  security: ['cli', 'export', 'http', 'instances', 'load', 'setup', 'testing', ...STORE_INTERNALS],
  http: ['cli', 'export', 'instances', 'load', 'setup', 'testing', ...STORE_INTERNALS],
  setup: ['cli', 'export', 'http', 'instances', 'load', 'testing', ...STORE_INTERNALS],
  instances: ['cli', 'export', 'load', 'testing', ...STORE_INTERNALS],
  load: ['cli', 'export', 'http', 'instances', 'testing', ...STORE_INTERNALS],
  export: ['cli', 'http', 'instances', 'testing', ...STORE_INTERNALS],
  cli: ['testing', ...STORE_INTERNALS],
  testing: ['api', 'cli', 'export', 'http', 'instances', 'load', 'security', 'setup', 'store'],
};

const layerMessage = (from, folder) => `src/${from} must not import src/${folder} (layers: README.md, Architecture).`;

/** A relative import reaching the folder `src/<folder>`, e.g. `../../http/app.js` for `http`. */
const folderImport = (from, folder) => ({ regex: `^(\\.\\./)+${folder}(/|$)`, message: layerMessage(from, folder) });

/** From inside a store implementation, another one is `../<name>/` (or `../../store/<name>/`). */
const siblingImport = (from, sibling) => ({
  regex: `^(\\.\\./)+(store/)?${sibling}(/|$)`,
  message: layerMessage(from, `store/${sibling}`),
});

const driverImport = (regex) => ({
  regex,
  message: 'Database drivers are used only inside their store implementation (src/store/sqlite, src/store/postgres).',
});

const restrictImports = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

const serverLayers = Object.entries(forbiddenFolders).map(([from, folders]) =>
  restrictImports(
    [`${SERVER_SRC}/${from}/**`],
    [...folders.map((folder) => folderImport(from, folder)), ...ALL_DRIVERS.map(driverImport)],
  ),
);

// Each store implementation may use only its own driver and not the other implementation; the dialect-neutral
// relational code, which both share, uses neither driver.
const storeImplementations = STORE_IMPLEMENTATIONS.map((implementation) => {
  const from = `store/${implementation}`;
  const siblings = STORE_IMPLEMENTATIONS.filter((other) => other !== implementation && other !== 'relational');
  return restrictImports(
    [`${SERVER_SRC}/${from}/**`],
    [
      ...forbiddenFolders.store.map((folder) => folderImport(from, folder)),
      ...siblings.map((sibling) => siblingImport(from, sibling)),
      ...Object.entries(DRIVERS)
        .filter(([owner]) => owner !== implementation)
        .map(([, regex]) => driverImport(regex)),
    ],
  );
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'packages/server/model/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/test/**', '**/bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Later entries replace earlier ones for the same files: drivers everywhere, then per folder, then per store.
  {
    ...restrictImports(['packages/**'], ALL_DRIVERS.map(driverImport)),
    ignores: ['**/test/**', '**/bench/**', 'packages/server/tools/**'],
  },
  ...serverLayers,
  ...storeImplementations,
  // No import circles in the sources: each package's folders form layers (the framework's ground floor is types.ts).
  {
    files: ['packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    // Sources import `./x.js`, which is `./x.ts` until built.
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
