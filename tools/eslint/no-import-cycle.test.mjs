import rule from './no-import-cycle.js';
import { fakeRepo, ruleTester } from './rule-tester.mjs';

const repo = fakeRepo({
  // a → b → a, the way back through a type-only import.
  'apps/server/src/a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
  'apps/server/src/b.ts': "import type { A } from './a.js';\nexport const b = 1;\nexport type B = A;\n",
  // c imports the cycle but is not in it.
  'apps/server/src/c.ts': "import { a } from './a.js';\nexport const c = a;\n",
  // A longer cycle through the web alias and the shared package: x → y → s → x? (s cannot import web), so x → y → z → x.
  'apps/web/src/x.tsx': "import { y } from '@/y';\nexport const x = y;\n",
  'apps/web/src/y.ts': "export { z as y } from './lib/z';\n",
  'apps/web/src/lib/z.ts': "import { x } from '../x';\nimport { s } from '@bo/shared/s';\nexport const z = () => x + s;\n",
  'packages/shared/src/s.ts': "export const s = 1;\n",
  // Type positions and dynamic imports count too.
  'packages/shared/src/t.ts': "export type T = import('./u.js').U;\n",
  'packages/shared/src/u.ts': "export type U = number;\nexport const load = () => import('./t.js');\n",
  // A self-import.
  'packages/shared/src/self.ts': "import * as me from './self.js';\nexport const one = 1;\nexport const again = me.one;\n",
  // Not read: packages.
  'node_modules/pkg/index.ts': "import '../../apps/server/src/a.js';\n",
});
const options = [{ root: repo.root }];
const cycle = (text) => ({ messageId: 'cycle', data: { cycle: text } });

ruleTester.run('no-import-cycle', rule, {
  valid: [repo.file('apps/server/src/c.ts', { options }), repo.file('packages/shared/src/s.ts', { options })],
  invalid: [
    repo.file('apps/server/src/a.ts', { options, errors: [cycle('apps/server/src/a.ts → apps/server/src/b.ts → apps/server/src/a.ts')] }),
    repo.file('apps/server/src/b.ts', { options, errors: [cycle('apps/server/src/b.ts → apps/server/src/a.ts → apps/server/src/b.ts')] }),
    repo.file('apps/web/src/x.tsx', { options, errors: [cycle('apps/web/src/x.tsx → apps/web/src/y.ts → apps/web/src/lib/z.ts → apps/web/src/x.tsx')] }),
    // Only the import inside the cycle, not the one of @bo/shared/s.
    repo.file('apps/web/src/lib/z.ts', { options, errors: [{ ...cycle('apps/web/src/lib/z.ts → apps/web/src/x.tsx → apps/web/src/y.ts → apps/web/src/lib/z.ts'), line: 1 }] }),
    repo.file('apps/web/src/y.ts', { options, errors: [cycle('apps/web/src/y.ts → apps/web/src/lib/z.ts → apps/web/src/x.tsx → apps/web/src/y.ts')] }),
    repo.file('packages/shared/src/t.ts', { options, errors: [cycle('packages/shared/src/t.ts → packages/shared/src/u.ts → packages/shared/src/t.ts')] }),
    repo.file('packages/shared/src/u.ts', { options, errors: [cycle('packages/shared/src/u.ts → packages/shared/src/t.ts → packages/shared/src/u.ts')] }),
    repo.file('packages/shared/src/self.ts', { options, errors: [cycle('packages/shared/src/self.ts → packages/shared/src/self.ts')] }),
  ],
});
