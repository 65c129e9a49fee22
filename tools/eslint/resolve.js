// Where an import specifier points, as an absolute file path: shared by the local rules that follow
// imports (no-import-cycle, floors). Only the repo's own files resolve; packages give null.
import { statSync } from 'node:fs';
import path from 'node:path';

/** Path aliases of the workspaces (apps/web/tsconfig.json `paths`, packages/shared `exports`). */
export const ALIASES = [
  ['@/', 'apps/web/src/'],
  ['@bo/shared/', 'packages/shared/src/'],
];

const isFileOnDisk = (() => {
  const known = new Map();
  return (file) => {
    let answer = known.get(file);
    if (answer === undefined) {
      try {
        answer = statSync(file).isFile();
      } catch {
        answer = false;
      }
      known.set(file, answer);
    }
    return answer;
  };
})();

/**
 * The file `specifier` (written in `fromFile`) names, or null for a package or a file that does not
 * exist. TypeScript's rules: `./x.js` is `./x.ts` or `./x.tsx`; no extension tries `.ts`, `.tsx`, then
 * `index.ts(x)`. `exists` tells whether a path is a file (the graph passes its own file list).
 */
export function resolveImport(specifier, fromFile, root, exists = isFileOnDisk) {
  let base;
  if (specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')) {
    base = path.resolve(path.dirname(fromFile), specifier);
  } else {
    const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
    if (!alias) return null;
    base = path.join(root, alias[1], specifier.slice(alias[0].length));
  }
  const candidates = [];
  const js = /\.(m|c)?jsx?$/.exec(base);
  if (js) {
    const stem = base.slice(0, -js[0].length);
    const ts = js[1] ? `.${js[1]}ts` : '.ts';
    candidates.push(stem + ts, stem + '.tsx');
  }
  candidates.push(base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx'));
  return candidates.find((file) => /\.(m|c)?tsx?$/.test(file) && exists(file)) ?? null;
}

/**
 * ESLint visitors that call `check(node, specifier)` for every import of a file: `import`, `import type`,
 * `export … from`, `import()` with a literal, `import('…')` in a type, and `import x = require('…')`.
 */
export function importVisitors(check) {
  const literal = (node, source) => {
    if (source && source.type === 'Literal' && typeof source.value === 'string') check(node, source.value);
  };
  return {
    ImportDeclaration: (node) => literal(node, node.source),
    ExportNamedDeclaration: (node) => literal(node, node.source),
    ExportAllDeclaration: (node) => literal(node, node.source),
    ImportExpression: (node) => literal(node, node.source),
    // typescript-eslint 8.x: `source` (the literal) in newer versions, `argument` (a TSLiteralType) before.
    TSImportType: (node) => literal(node, 'source' in node ? node.source : node.argument?.literal),
    TSExternalModuleReference: (node) => literal(node, node.expression),
  };
}

/** `path` relative to `root`, with forward slashes. */
export const relativeTo = (root, file) => path.relative(root, file).split(path.sep).join('/');
