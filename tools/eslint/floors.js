// local/floors: the server's floors (docs/CODE_STYLE.md §15). A file imports files of its own floor and
// of the floors below it, never above; on a floor whose units keep apart (`apart`), a unit reaches a
// sibling unit only through the files `apart` names (its repository or presenter). The floor table
// is the rule's option, written once at the top of eslint.config.js.
import path from 'node:path';
import { importVisitors, relativeTo, resolveImport } from './resolve.js';

/** A file-name glob (`*.repository.ts`): `*` matches any characters but `/`. */
const globRegex = (glob) => new RegExp(`^${glob.split('*').map(escape).join('[^/]*')}$`);
const escape = (text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * Each floor's `folders` entry is a folder or file under `src`, relative to it; a `*` segment makes
 * every folder it matches a unit of its own (`areas/*`: one unit per area). The returned `place` gives
 * a path's floor (1-based), its unit and whether it is one of the floor's shared files.
 */
export function compileFloors(floors) {
  const entries = floors.flatMap((floor, i) =>
    floor.folders.map((folder) => ({
      floor: i + 1,
      name: floor.name,
      apart: floor.apart ?? null,
      unitRegex: new RegExp(`^${folder.split('/').map((segment) => (segment === '*' ? '[^/]+' : escape(segment))).join('/')}(?=/|$)`),
    })),
  );
  const shared = new Map(floors.map((floor, i) => [i + 1, (floor.apart ?? []).map(globRegex)]));
  return (relative) => {
    for (const entry of entries) {
      const unit = entry.unitRegex.exec(relative)?.[0];
      if (unit === undefined) continue;
      const base = path.posix.basename(relative);
      return { floor: entry.floor, name: entry.name, unit, apart: entry.apart, isShared: shared.get(entry.floor).some((regex) => regex.test(base)) };
    }
    return null;
  };
}

const compiled = new WeakMap();

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A server file imports only its own floor and the floors below; apart units only through their shared files.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          src: { type: 'string' },
          floors: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string' },
                folders: { type: 'array', items: { type: 'string' } },
                apart: { type: 'array', items: { type: 'string' } },
              },
              required: ['name', 'folders'],
              additionalProperties: false,
            },
          },
        },
        required: ['src', 'floors'],
        additionalProperties: false,
      },
    ],
    messages: {
      unplaced: '{{file}} is on no floor: add its folder to the floor table in eslint.config.js (SERVER_FLOORS), or move it into a folder that is.',
      up: '{{file}} (floor {{fromFloor}}, {{fromName}}) imports {{target}} (floor {{toFloor}}, {{toName}}): a floor imports only itself and the floors below. Move what it needs down to floor {{fromFloor}} or lower, or pass it in from above.',
      sibling:
        '{{file}} ({{fromUnit}}) imports {{target}} of {{toUnit}}: on floor {{floor}} ({{name}}) one unit reaches another only through its {{shared}} files. Import its repository or presenter, or move the shared function down a floor.',
    },
  },
  create(context) {
    const options = context.options[0];
    const root = path.resolve(context.cwd, options.root ?? '.');
    const src = path.resolve(root, options.src);
    let place = compiled.get(options.floors);
    if (!place) compiled.set(options.floors, (place = compileFloors(options.floors)));
    const file = context.physicalFilename;
    const relative = relativeTo(src, file);
    if (relative.startsWith('../')) return {};
    const from = place(relative);
    if (!from) {
      return { Program: (node) => context.report({ node, messageId: 'unplaced', data: { file: relative } }) };
    }
    return importVisitors((node, specifier) => {
      const target = resolveImport(specifier, file, root);
      if (!target) return;
      const targetRelative = relativeTo(src, target);
      if (targetRelative.startsWith('../')) return;
      const to = place(targetRelative);
      if (!to) return; // reported in its own file
      const data = { file: relative, target: targetRelative };
      if (to.floor > from.floor) {
        context.report({ node, messageId: 'up', data: { ...data, fromFloor: from.floor, fromName: from.name, toFloor: to.floor, toName: to.name } });
      } else if (to.floor === from.floor && to.unit !== from.unit && from.apart && !to.isShared) {
        context.report({ node, messageId: 'sibling', data: { ...data, fromUnit: from.unit, toUnit: to.unit, floor: from.floor, name: from.name, shared: from.apart.join(' / ') } });
      }
    });
  },
};
