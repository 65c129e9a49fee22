import rule from './floors.js';
import { fakeRepo, ruleTester } from './rule-tester.mjs';

const FLOORS = [
  { name: 'ground', folders: ['lib', 'db', 'config.ts'] },
  { name: 'platform', folders: ['auth', 'plugins'] },
  { name: 'item core', folders: ['items/lifecycle'] },
  { name: 'item kinds', folders: ['items/module', 'items/cluster'], apart: ['*.repository.ts', '*.presenter.ts'] },
  { name: 'areas', folders: ['areas/*'], apart: ['*.repository.ts', '*.presenter.ts'] },
  { name: 'top', folders: ['app.ts', 'seed'] },
];
const S = 'apps/server/src';
const repo = fakeRepo({
  [`${S}/config.ts`]: 'export const port = 1;\n',
  [`${S}/lib/errors.ts`]: "import { port } from '../config.js';\nimport { s } from '@bo/shared/s';\nimport { z } from 'zod';\nexport const e = port + s;\n",
  [`${S}/lib/bad.ts`]: "import type { Kind } from '../items/module/module.kind.js';\nimport { user } from '../auth/auth.service.js';\nexport const b = user;\n",
  [`${S}/db/client.ts`]: "import { e } from '../lib/errors.js';\nexport const db = e;\n",
  [`${S}/auth/auth.service.ts`]: "import { db } from '../db/client.js';\nimport { guard } from '../plugins/guard.js';\nexport const user = db;\n",
  [`${S}/plugins/guard.ts`]: "import { user } from '../auth/auth.service.js';\nexport const guard = user;\n",
  [`${S}/items/lifecycle/publish.ts`]: "import { db } from '../../db/client.js';\nimport { rows } from '../module/modules.repository.js';\nexport const p = db;\n",
  [`${S}/items/module/module.kind.ts`]: 'export type Kind = 1;\n',
  [`${S}/items/module/modules.repository.ts`]: 'export const rows = 1;\n',
  [`${S}/items/module/modules.service.ts`]: "import { p } from '../lifecycle/publish.js';\nimport { clusterRows } from '../cluster/clusters.repository.js';\nimport { present } from '../cluster/cluster.presenter.js';\nimport { save } from '../cluster/clusters.service.js';\nexport const m = p;\n",
  [`${S}/items/cluster/clusters.repository.ts`]: 'export const clusterRows = 1;\n',
  [`${S}/items/cluster/cluster.presenter.ts`]: 'export const present = 1;\n',
  [`${S}/items/cluster/clusters.service.ts`]: "import { rows } from '../module/modules.repository.js';\nexport const save = rows;\n",
  [`${S}/areas/search/search.service.ts`]: "import { m } from '../../items/module/modules.service.js';\nimport { hits } from './search.repository.js';\nimport { up } from '../uploads/uploads.repository.js';\nimport { load } from '../uploads/uploads.service.js';\nimport type { Row } from '../uploads/uploads.routes.js';\nexport const s = m;\n",
  [`${S}/areas/search/search.repository.ts`]: 'export const hits = 1;\n',
  [`${S}/areas/uploads/uploads.repository.ts`]: "export const up = 1;\n",
  [`${S}/areas/uploads/uploads.service.ts`]: "export const load = 1;\n",
  [`${S}/areas/uploads/uploads.routes.ts`]: "export type Row = 1;\n",
  [`${S}/app.ts`]: "import { s } from './areas/search/search.service.js';\nimport { db } from './db/client.js';\nexport const app = s;\n",
  [`${S}/stray/thing.ts`]: 'export const t = 1;\n',
  ['packages/shared/src/s.ts']: 'export const s = 1;\n',
});
const options = [{ root: repo.root, src: S, floors: FLOORS }];
const up = (file, target, fromFloor, fromName, toFloor, toName) => ({ messageId: 'up', data: { file, target, fromFloor, fromName, toFloor, toName } });
const sibling = (file, target, fromUnit, toUnit, floor, name) => ({ messageId: 'sibling', data: { file, target, fromUnit, toUnit, floor, name, shared: '*.repository.ts / *.presenter.ts' } });

ruleTester.run('floors', rule, {
  valid: [
    ...['config.ts', 'lib/errors.ts', 'db/client.ts', 'auth/auth.service.ts', 'plugins/guard.ts', 'items/cluster/clusters.service.ts', 'app.ts'].map((file) => repo.file(`${S}/${file}`, { options })),
    // Files outside src are not this rule's business.
    repo.file('packages/shared/src/s.ts', { options }),
  ],
  invalid: [
    repo.file(`${S}/lib/bad.ts`, {
      options,
      errors: [up('lib/bad.ts', 'items/module/module.kind.ts', 1, 'ground', 4, 'item kinds'), up('lib/bad.ts', 'auth/auth.service.ts', 1, 'ground', 2, 'platform')],
    }),
    repo.file(`${S}/items/lifecycle/publish.ts`, { options, errors: [up('items/lifecycle/publish.ts', 'items/module/modules.repository.ts', 3, 'item core', 4, 'item kinds')] }),
    repo.file(`${S}/items/module/modules.service.ts`, {
      options,
      errors: [sibling('items/module/modules.service.ts', 'items/cluster/clusters.service.ts', 'items/module', 'items/cluster', 4, 'item kinds')],
    }),
    repo.file(`${S}/areas/search/search.service.ts`, {
      options,
      errors: [
        sibling('areas/search/search.service.ts', 'areas/uploads/uploads.service.ts', 'areas/search', 'areas/uploads', 5, 'areas'),
        sibling('areas/search/search.service.ts', 'areas/uploads/uploads.routes.ts', 'areas/search', 'areas/uploads', 5, 'areas'),
      ],
    }),
    repo.file(`${S}/stray/thing.ts`, { options, errors: [{ messageId: 'unplaced', data: { file: 'stray/thing.ts' } }] }),
  ],
});
