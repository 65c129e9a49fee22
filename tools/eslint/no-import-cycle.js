// local/no-import-cycle: no file imports itself through other files (docs/CODE_STYLE.md §14).
// The rule reads every .ts/.tsx file of the repo once per process (TypeScript's import scanner, no
// full parse), finds the strongly connected components of the import graph, and then, file by file,
// reports each import whose target sits in the importing file's own component.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { importVisitors, relativeTo, resolveImport } from './resolve.js';

/** Folders never read: packages, build output, generated SQL, and dot-folders (.git, .cache …). */
const SKIPPED = new Set(['node_modules', 'dist', 'build', 'coverage', 'migrations']);

function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(m|c)?tsx?$/.test(entry.name)) files.push(full);
    }
  };
  walk(root);
  return files;
}

/** Tarjan's algorithm, iterative: component id per file; `cyclic` holds the ids of real cycles. */
function components(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  const cyclic = new Set();
  let counter = 0;
  let id = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [[start, edges.get(start)[Symbol.iterator]()]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const [node, next] = work[work.length - 1];
      const step = next.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push([to, edges.get(to)[Symbol.iterator]()]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.set(member, id);
          members.push(member);
        } while (member !== node);
        if (members.length > 1 || edges.get(node).has(node)) cyclic.add(id);
        id++;
      }
    }
  }
  return { component, cyclic };
}

function buildGraph(root) {
  const files = sourceFiles(root);
  const known = new Set(files);
  const exists = (file) => known.has(file);
  const edges = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveImport(fileName, file, root, exists);
      if (target) targets.add(target);
    }
    edges.set(file, targets);
  }
  const { component, cyclic } = components(edges);
  return { edges, exists, component, cyclic };
}

/** One graph per repo root and process: `eslint .` lints every file against the same graph. */
const graphs = new Map();
export function importGraph(root) {
  let graph = graphs.get(root);
  if (!graph) graphs.set(root, (graph = buildGraph(root)));
  return graph;
}

/** The shortest way back from `to` to `from` inside their component: [to, …, from]. */
function wayBack(graph, to, from) {
  const inside = graph.component.get(from);
  const cameFrom = new Map([[to, null]]);
  const queue = [to];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    if (file === from) break;
    for (const next of graph.edges.get(file)) {
      if (!cameFrom.has(next) && graph.component.get(next) === inside) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  const way = [];
  for (let file = from; file !== null; file = cameFrom.get(file)) way.unshift(file);
  return way;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles: the import graph of the repo is a DAG (type-only imports count).' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      cycle: 'Import cycle: {{cycle}}. Move what both sides need into a file that neither imports back (a lower floor), or pass it in as a parameter.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0]?.root ?? '.');
    const file = context.physicalFilename;
    const graph = importGraph(root);
    const mine = graph.component.get(file);
    if (mine === undefined || !graph.cyclic.has(mine)) return {};
    return importVisitors((node, specifier) => {
      const target = resolveImport(specifier, file, root, graph.exists);
      if (!target || graph.component.get(target) !== mine) return;
      const cycle = [file, ...wayBack(graph, target, file)].map((step) => relativeTo(root, step)).join(' → ');
      context.report({ node, messageId: 'cycle', data: { cycle } });
    });
  },
};
