// ESLint 9 flat config for the whole monorepo (`npm run lint`, part of `npm test`).
// The layering rules are docs/CODE_STYLE.md §7–10 written as `no-restricted-imports` patterns; every
// file gets exactly one `no-restricted-imports` setting (flat config replaces a rule's options, it does
// not merge them), built by `restrictImports()` from the lists below. The server's floors, import
// cycles and SQL outside repositories (§14–16) are the repo's own rules in tools/eslint/.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import local from './tools/eslint/plugin.js';

/**
 * The server's floors, lowest first (docs/CODE_STYLE.md §15): a file of apps/server/src imports its own
 * floor and the floors below, never above. `folders` are relative to apps/server/src; a `*` makes each
 * folder it matches a unit of its own, and on a floor with `apart` one unit imports another only
 * through the files `apart` names. A folder on no floor is an error: add it here.
 */
const SHARED_ACROSS = ['*.repository.ts', '*.presenter.ts'];
const SERVER_FLOORS = [
  { name: 'ground', folders: ['lib', 'db', 'jobs', 'config.ts'] },
  { name: 'platform', folders: ['auth', 'plugins'] },
  { name: 'item core', folders: ['items/lifecycle'] },
  { name: 'item kinds', folders: ['items/module', 'items/cluster'], apart: SHARED_ACROSS },
  { name: 'areas', folders: ['areas/*'], apart: SHARED_ACROSS },
  { name: 'top', folders: ['app.ts', 'server.ts', 'seed'] },
];

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const WEB = 'apps/web/src';
const FEATURES = readdirSync(new URL(`./${WEB}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** How deep files sit below `features/<x>/` today is 1; a few more levels cost nothing. */
const MAX_FEATURE_DEPTH = 4;
const TS = '*.{ts,tsx}';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SHARED_ROOT = {
  name: '@bo/shared',
  message: "Import the file, not the package root: '@bo/shared/<area>' (no barrel files).",
};

const FEATURE_MESSAGE =
  'A feature does not import another feature. Move what both need to components/, lib/ or @bo/shared, or let app/ compose the two.';

/** `@/features/<y>` and relative paths into `features/<y>` from a file `depth` folders below `features/<feature>/`. */
function otherFeaturePatterns(feature, depth) {
  const notSelf = `(?!${escape(feature)}(/|$))`;
  return [
    { regex: `^@/features/${notSelf}`, message: FEATURE_MESSAGE },
    // `depth + 1` steps up is `features/`, `depth + 2` is `src/`.
    { regex: `^(\\.\\./){${depth + 1}}${notSelf}[^./]`, message: FEATURE_MESSAGE },
    { regex: `^(\\.\\./){${depth + 2}}features/${notSelf}`, message: FEATURE_MESSAGE },
  ];
}

const SHARED_CODE_PATTERNS = [
  {
    regex: '^(@/|(\\.\\.?/)+)features/',
    message: 'Shared code (components/, lib/, hooks/, config/) does not import features: the direction is shared → features → app.',
  },
];

const SCHEMA_PATTERNS = [
  {
    regex: '(^|/)db/schema(\\.js|\\.ts)?$',
    message: 'Only repositories (*.repository.ts), db/** (migrations, seed) and tests import db/schema: services and routes go through a repository.',
  },
];

const restrictImports = (patterns = []) => ['error', { paths: [SHARED_ROOT], patterns }];

const BARREL_SELECTORS = [
  { selector: 'ExportAllDeclaration', message: 'No barrel files: do not re-export another file (`export * from`); import the file itself.' },
  { selector: 'ExportNamedDeclaration[source]', message: 'No barrel files: do not re-export another file (`export { … } from`); import the file itself.' },
];

export default defineConfig(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'apps/web/e2e/screenshots/**', 'apps/server/src/db/migrations/**', '**/*.js', '**/*.cjs', '**/*.mjs'],
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { local },
    rules: {
      'no-restricted-imports': restrictImports(),
      'local/disable-needs-reason': 'error',
      'local/no-import-cycle': ['error', { root: ROOT }],
      // `_name` marks a value left out on purpose (`const { gone: _gone, ...rest } = …`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // React: the two classic hook rules. The React Compiler rules of the plugin's v7 presets are not on:
  // the app does not use the compiler.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // Web layering: shared code does not import features.
  {
    files: [`${WEB}/components/**/${TS}`, `${WEB}/lib/**/${TS}`, `${WEB}/hooks/**/${TS}`, `${WEB}/config/**/${TS}`],
    rules: { 'no-restricted-imports': restrictImports(SHARED_CODE_PATTERNS) },
  },
  // Web layering: a feature does not import another feature (one block per feature and depth, since a
  // relative path's meaning depends on where the file sits).
  ...FEATURES.flatMap((feature) =>
    Array.from({ length: MAX_FEATURE_DEPTH + 1 }, (_, depth) => ({
      files: [`${WEB}/features/${feature}/${'*/'.repeat(depth)}${TS}`],
      rules: { 'no-restricted-imports': restrictImports(otherFeaturePatterns(feature, depth)) },
    })),
  ),
  // No barrel files: features do not re-export, and there is no index.ts anywhere in the apps.
  {
    files: [`${WEB}/features/**/${TS}`],
    rules: { 'no-restricted-syntax': ['error', ...BARREL_SELECTORS] },
  },
  {
    files: ['apps/*/src/**/index.{ts,tsx}', 'packages/*/src/**/index.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'Program', message: 'No index.ts files: name the file for what it holds and import it directly.' }, ...BARREL_SELECTORS],
    },
  },
  // Server layering: db/schema and SQL only in repositories, db/** (migrations), seed/**, tests and benches.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**', 'apps/server/src/seed/**', 'apps/server/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrictImports(SCHEMA_PATTERNS), 'local/sql-in-repositories': 'error' },
  },
  // Server floors (tests and benches may reach any floor).
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: { 'local/floors': ['error', { root: ROOT, src: 'apps/server/src', floors: SERVER_FLOORS }] },
  },
);
