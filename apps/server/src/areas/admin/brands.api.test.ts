import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUR_EU, buildModule } from '../../../test/builders.js';
import { buildAdminApp, type AdminApp, type AdminCall } from '../../../test/admin-app.js';
import type { TestUsers } from '../../../test/test-app.js';
import { auditLog, userGrants } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { role: 'EDITOR', grants: { view: AUR_EU, edit: AUR_EU } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] } } },
  gone: { role: 'VIEWER', status: 'Disabled', grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
  norole: { role: null },
} as const satisfies TestUsers;

let { app, as, ids, call, forbiddenToAll } = {} as AdminApp<keyof typeof USERS>;

beforeEach(async () => {
  ({ app, as, ids, call, forbiddenToAll } = await buildAdminApp(USERS));
});
afterEach(async () => {
  await app.close();
});

const brandRows = async (userId: number) =>
  (await app.database.db.select().from(userGrants).where(eq(userGrants.userId, userId)))
    .filter((g) => g.grantType === 'brand')
    .map((g) => `${g.grantCode}:${g.permissionType}`)
    .sort();

describe('GET /api/brand/allBrandsWithUsers', () => {
  it('lists the brands sorted by brand with who holds each at view, edit and submit', async () => {
    const res = await call('GET', '/api/brand/allBrandsWithUsers');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        brand: 'AUR',
        description: 'Aurora Optics',
        permissionMap: { view: [ids.editor, ids.viewer], edit: [ids.editor], submit: [] },
        holderCounts: { view: 2, edit: 1, submit: 0 },
      },
      // The disabled user still holds VLT (a save keeps their grant) but is not counted: the popup does not list them.
      { brand: 'VLT', description: 'Velto', permissionMap: { view: [ids.viewer, ids.gone], edit: [], submit: [] }, holderCounts: { view: 1, edit: 0, submit: 0 } },
    ]);
  });

  it('counts a brand’s holders as the brand popup lists them: the users of /api/user/allCreators (issue 34)', async () => {
    const brands = (await call('GET', '/api/brand/allBrandsWithUsers')).json() as { brand: string; permissionMap: Record<string, number[]>; holderCounts: Record<string, number> }[];
    const listed = new Set(((await call('GET', '/api/user/allCreators')).json() as { userId: number }[]).map((u) => u.userId));
    for (const b of brands) {
      for (const level of ['view', 'edit', 'submit']) expect(b.holderCounts[level], `${b.brand} ${level}`).toBe(b.permissionMap[level]!.filter((id) => listed.has(id)).length);
    }
    // A save answers the same counts.
    const saved = await call('POST', '/api/brand/save', { brand: 'VLT', permissionMap: { view: [ids.viewer, ids.gone, ids.editor], edit: [], submit: [] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().holderCounts).toEqual({ view: 2, edit: 0, submit: 0 });
  });
});

describe('POST /api/brand/save', () => {
  it('grants edit with view, answers the updated brand, and the users see the same grants', async () => {
    const res = await call('POST', '/api/brand/save', {
      brand: 'VLT',
      description: 'Velto',
      permissionMap: { view: [ids.viewer, ids.gone], edit: [ids.editor], submit: [] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      brand: 'VLT',
      description: 'Velto',
      permissionMap: { view: [ids.editor, ids.viewer, ids.gone], edit: [ids.editor], submit: [] },
      holderCounts: { view: 2, edit: 1, submit: 0 },
    });
    expect(await brandRows(ids.editor!)).toEqual(['AUR:edit', 'AUR:view', 'VLT:edit', 'VLT:view']);
    const editor = (await call('GET', '/api/user/')).json().find((u: { userId: number }) => u.userId === ids.editor);
    expect(editor.grants.filter((g: { grantCode: string }) => g.grantCode === 'VLT').map((g: { permissionType: string }) => g.permissionType).sort()).toEqual([
      'edit',
      'view',
    ]);
    const [entry] = await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'grant-change'));
    expect(entry).toMatchObject({ username: 'admin', itemType: 'brand', itemKey: 'VLT' });
    expect(entry!.summary).toEqual({ changes: [{ userId: ids.editor, email: 'editor@example.com', before: [], after: ['view', 'edit'] }] });
  });

  it("applies on the affected user's next call: the brand's modules become editable", async () => {
    await buildModule(app.database.db, { moduleName: 'VLT_SUN_PIL_01', brandCode: 'VLT' });
    const editor = await as('editor');
    const lock = () => app.inject({ method: 'POST', url: '/api/module/lock', headers: editor, payload: [{ moduleName: 'VLT_SUN_PIL_01', monthId: 'M01_2027' }] });
    expect((await lock()).json()[0].acquired).toBe(false);
    await call('POST', '/api/brand/save', { brand: 'VLT', permissionMap: { view: [ids.viewer, ids.gone], edit: [ids.editor], submit: [] } });
    expect((await lock()).json()[0].acquired).toBe(true);
  });

  it('keeps view while a higher level remains, and removes a user from the brand altogether', async () => {
    const keep = await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [ids.viewer], edit: [ids.editor], submit: [] } });
    expect(keep.json().permissionMap).toEqual({ view: [ids.editor, ids.viewer], edit: [ids.editor], submit: [] });
    const remove = await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [ids.editor], edit: [ids.editor], submit: [] } });
    expect(remove.statusCode).toBe(200);
    expect(remove.json().permissionMap).toEqual({ view: [ids.editor], edit: [ids.editor], submit: [] });
    expect(await brandRows(ids.viewer!)).toEqual(['VLT:view']);
  });

  it('refuses a level whose stars zones are missing, changing nothing', async () => {
    const res = await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [ids.editor, ids.viewer], edit: [ids.editor], submit: [ids.viewer] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'grantsUnpaired',
      message:
        'For each of view, edit and submit, brand grants and stars zone grants must be both present or both absent: viewer@example.com (submit has brands but no stars zones).',
    });
    expect(await brandRows(ids.viewer!)).toEqual(['AUR:view', 'VLT:view']);
  });

  it('refuses removing the last brand of a level that keeps stars zones', async () => {
    const res = await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [ids.viewer], edit: [], submit: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('editor@example.com (view has stars zones but no brands; edit has stars zones but no brands)');
  });

  it('refuses changes for users that are not enabled or have no role, but keeps untouched holders', async () => {
    const disabled = await call('POST', '/api/brand/save', { brand: 'VLT', permissionMap: { view: [ids.viewer], edit: [], submit: [] } });
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json()).toEqual({ error: 'userNotEnabled', message: 'Grants can be changed only for enabled users: gone@example.com.' });
    const noRole = await call('POST', '/api/brand/save', { brand: 'VLT', permissionMap: { view: [ids.viewer, ids.gone, ids.norole], edit: [], submit: [] } });
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().error).toBe('noRoleNoGrants');
    const untouched = await call('POST', '/api/brand/save', { brand: 'VLT', permissionMap: { view: [ids.gone], edit: [], submit: [] } });
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json().permissionMap.view).toEqual([ids.gone]);
  });

  it('answers 404 for an unknown brand and 400 for unknown users or a bad body', async () => {
    expect((await call('POST', '/api/brand/save', { brand: 'NOPE', permissionMap: { view: [], edit: [], submit: [] } })).statusCode).toBe(404);
    const unknown = await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [ids.editor, ids.viewer, 9999], edit: [ids.editor], submit: [] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown users: 9999');
    expect((await call('POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: ['x'] } })).statusCode).toBe(400);
  });

  it('records nothing when nothing changes', async () => {
    const current = (await call('GET', '/api/brand/allBrandsWithUsers')).json()[0];
    expect((await call('POST', '/api/brand/save', current)).json()).toEqual(current);
    expect(await app.database.db.select().from(auditLog).where(eq(auditLog.action, 'grant-change'))).toEqual([]);
  });
});

describe('access', () => {
  const calls: AdminCall[] = [
    ['GET', '/api/brand/allBrandsWithUsers'],
    ['POST', '/api/brand/save', { brand: 'AUR', permissionMap: { view: [], edit: [], submit: [] } }],
  ];

  it('answers 403 to every non-admin and 401 without a token', async () => {
    await forbiddenToAll(['editor', 'viewer'], calls);
    expect(await brandRows(ids.editor!)).toEqual(['AUR:edit', 'AUR:view']);
    for (const [method, url, payload] of calls) {
      expect((await app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) })).statusCode).toBe(401);
    }
  });

  it('leaves GET /api/brand/all open to every signed-in user', async () => {
    const headers = await as('viewer');
    expect((await call('GET', '/api/brand/all', undefined, headers)).statusCode).toBe(200);
  });
});
