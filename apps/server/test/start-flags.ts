import { readFileSync } from 'node:fs';

/**
 * The V8 memory settings `npm start` gives the server (apps/server/package.json's start script), for the
 * benchmarks and the browser tests that start the server as it is deployed: one place to change them.
 */
export function startV8Flags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((a) => /^--max-(old|semi)-space-size=\d+$/.test(a));
}
