// RuleTester run by vitest: the repo's tests are vitest files without globals, so the tester is told
// which describe/it to use. The parser is typescript-eslint's (type imports, `import('…')` types).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' } });

/** A throwaway repo on disk: `files` maps relative paths to their text. Removed after the file's tests. */
export function fakeRepo(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'eslint-local-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return {
    root,
    /** A RuleTester case for the file as it is on disk. */
    file: (file, extra = {}) => ({ filename: path.join(root, file), code: files[file], ...extra }),
  };
}
