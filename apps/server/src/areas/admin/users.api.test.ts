import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { buildUser } from '../../../test/builders.js';
import { buildAdminApp, type AdminApp, type AdminCall } from '../../../test/admin-app.js';
import type { TestUsers } from '../../../test/test-app.js';
import { allowedEmails, auditLog, userGrants, users } from '../../db/schema.js';

const USERS = {
  admin: { role: 'ADMIN' },
  editor: { role: 'EDITOR', grants: { view: { brands: ['AUR', 'VLT'], zones: ['EU'] }, edit: { brands: ['AUR'], zones: ['EU'], rules: ['create'] } } },
  viewer: { role: 'VIEWER', grants: { view: { brands: ['AUR'], zones: ['EU', 'NA'] } } },
  newbie: { role: null, status: 'New' },
  gone: { role: 'VIEWER', status: 'Disabled', grants: { view: { brands: ['VLT'], zones: ['EU'] } } },
  norole: { role: null },
} as const satisfies TestUsers;
type User = keyof typeof USERS;

let { app, as, ids, call, forbiddenToAll } = {} as AdminApp<User>;

beforeEach(async () => {
  ({ app, as, ids, call, forbiddenToAll } = await buildAdminApp(USERS));
  await app.database.db.insert(allowedEmails).values([{ email: 'new.planner@example.com' }, { email: 'editor@example.com' }, { email: 'second@example.com' }]);
});
afterEach(async () => {
  await app.close();
});

const grantRows = async (userId: number) =>
  (await app.database.db.select().from(userGrants).where(eq(userGrants.userId, userId)))
    .map((g) => `${g.grantType}:${g.grantCode}:${g.permissionType}`)
    .sort();

const auditOf = async (action: string) => app.database.db.select().from(auditLog).where(eq(auditLog.action, action));

describe('GET /api/user/', () => {
  it('lists every user by e-mail with status, role, country and grants', async () => {
    const res = await call('GET', '/api/user/');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((u: { email: string }) => u.email)).toEqual([
      'admin@example.com',
      'editor@example.com',
      'gone@example.com',
      'newbie@example.com',
      'norole@example.com',
      'viewer@example.com',
    ]);
    const viewer = list.find((u: { email: string }) => u.email === 'viewer@example.com');
    expect(viewer).toEqual({
      userId: ids.viewer,
      email: 'viewer@example.com',
      firstName: 'viewer',
      lastName: 'Tester',
      status: 'Enabled',
      role: 'VIEWER',
      country: null,
      grants: [
        { grantCode: 'AUR', grantType: 'brand', permissionType: 'view', userId: ids.viewer },
        { grantCode: 'EU', grantType: 'starszone', permissionType: 'view', userId: ids.viewer },
        { grantCode: 'NA', grantType: 'starszone', permissionType: 'view', userId: ids.viewer },
      ],
    });
    expect(list.find((u: { email: string }) => u.email === 'newbie@example.com')).toMatchObject({ status: 'New', role: null, grants: [] });
  });

  it('answers the same without the trailing slash', async () => {
    expect((await call('GET', '/api/user')).json()).toEqual((await call('GET', '/api/user/')).json());
  });

  it('lists the creators: enabled users with a role other than ADMIN', async () => {
    const res = await call('GET', '/api/user/allCreators');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { email: string }) => u.email)).toEqual(['editor@example.com', 'viewer@example.com']);
  });

  it('lists the users without grants: no role, or no brand and zone', async () => {
    await buildUser(app.database.db, { username: 'empty', role: 'EDITOR' });
    const res = await call('GET', '/api/user/allNoGrants');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { email: string }) => u.email)).toEqual(['empty@example.com', 'newbie@example.com', 'norole@example.com']);
  });
});

describe('POST /api/user/insertCreator', () => {
  it('creates a user on the provider list, lowercased, status New, with the country', async () => {
    const res = await call('POST', '/api/user/insertCreator', { email: '  New.Planner@Example.COM ', country: 'it' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('The user has been added');
    expect(body.user).toMatchObject({ email: 'new.planner@example.com', status: 'New', role: null, country: 'IT', grants: [] });
    const [row] = await app.database.db.select().from(users).where(eq(users.email, 'new.planner@example.com'));
    expect(row).toMatchObject({ username: 'new.planner@example.com', passwordHash: null });
    const [entry] = await auditOf('user-create');
    expect(entry).toMatchObject({ username: 'admin', itemType: 'user', itemKey: 'new.planner@example.com' });
  });

  it('creates without a country', async () => {
    const res = await call('POST', '/api/user/insertCreator', { email: 'second@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.country).toBeNull();
  });

  it("refuses an e-mail that is not on the provider's list", async () => {
    const res = await call('POST', '/api/user/insertCreator', { email: 'stranger@elsewhere.com' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'notOnProviderList', message: "The user cannot be created because it is not on the provider's list" });
    expect(await auditOf('user-create')).toEqual([]);
  });

  it('answers "already present" for an existing user, whatever the case', async () => {
    for (const email of ['editor@example.com', 'EDITOR@example.com', 'norole@example.com']) {
      const res = await call('POST', '/api/user/insertCreator', { email });
      expect(res.statusCode, email).toBe(409);
      expect(res.json()).toEqual({ error: 'userAlreadyPresent', message: 'The user is already present and can be edited' });
    }
  });

  it('answers "already present" for the second of two creations of one e-mail', async () => {
    const [a, b] = await Promise.all([
      call('POST', '/api/user/insertCreator', { email: 'second@example.com' }),
      call('POST', '/api/user/insertCreator', { email: 'second@example.com' }),
    ]);
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
  });

  it('refuses an invalid e-mail and an unknown country with 400', async () => {
    for (const email of ['not-an-email', 'a@b', 'two@@example.com', 'sp ace@example.com', '']) {
      const res = await call('POST', '/api/user/insertCreator', { email });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().fields[0].path).toBe('body.email');
    }
    const res = await call('POST', '/api/user/insertCreator', { email: 'second@example.com', country: 'ZZ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].path).toBe('body.country');
  });
});

describe('POST /api/user/{userId}/enable and /disable', () => {
  it('disables a user: the answer carries the status, and their next call is refused', async () => {
    const viewer = await as('viewer');
    const res = await call('POST', `/api/user/${ids.viewer}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ userId: ids.viewer, status: 'Disabled' });
    expect((await app.inject({ method: 'GET', url: '/api/authorization/grant', headers: viewer })).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'viewer', password: 'secret' } });
    expect(login.json().message).toBe('The credentials are invalid');
    expect((await auditOf('user-disable'))[0]).toMatchObject({ itemKey: 'viewer@example.com', summary: { from: 'Enabled', to: 'Disabled' } });
  });

  it('enables a New or Disabled user', async () => {
    for (const name of ['newbie', 'gone']) {
      const res = await call('POST', `/api/user/${ids[name]}/enable`);
      expect(res.json()).toEqual({ userId: ids[name], status: 'Enabled' });
    }
    expect((await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'gone', password: 'secret' } })).statusCode).toBe(200);
    expect((await auditOf('user-enable')).map((a) => a.itemKey).sort()).toEqual(['gone@example.com', 'newbie@example.com']);
  });

  it('is idempotent and records only real changes', async () => {
    expect((await call('POST', `/api/user/${ids.viewer}/enable`)).json()).toEqual({ userId: ids.viewer, status: 'Enabled' });
    expect(await auditOf('user-enable')).toEqual([]);
  });

  it('refuses to disable your own account, and answers 404 for an unknown user', async () => {
    const own = await call('POST', `/api/user/${ids.admin}/disable`);
    expect(own.statusCode).toBe(422);
    expect(own.json()).toEqual({ error: 'ownAccount', message: 'You cannot disable your own account.' });
    expect((await call('POST', '/api/user/99999/enable')).statusCode).toBe(404);
    expect((await call('POST', '/api/user/abc/enable')).statusCode).toBe(400);
  });
});

describe('POST /api/user/save', () => {
  const g = (grantType: string, grantCode: string, permissionType: string) => ({ grantType, grantCode, permissionType });

  it('saves role and grants; edit and submit imply view (not for rules); answers the stored grants', async () => {
    const res = await call('POST', '/api/user/save', {
      userId: ids.viewer,
      email: 'ignored@example.com',
      status: 'Disabled',
      role: 'SUBMITTER',
      grants: [g('brand', 'VLT', 'submit'), g('starszone', 'NA', 'submit'), g('brand', 'AUR', 'edit'), g('starszone', 'EU', 'edit'), g('rule', 'create', 'edit')],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { grantCode: 'AUR', grantType: 'brand', permissionType: 'view', userId: ids.viewer },
      { grantCode: 'VLT', grantType: 'brand', permissionType: 'view', userId: ids.viewer },
      { grantCode: 'AUR', grantType: 'brand', permissionType: 'edit', userId: ids.viewer },
      { grantCode: 'VLT', grantType: 'brand', permissionType: 'submit', userId: ids.viewer },
      { grantCode: 'EU', grantType: 'starszone', permissionType: 'view', userId: ids.viewer },
      { grantCode: 'NA', grantType: 'starszone', permissionType: 'view', userId: ids.viewer },
      { grantCode: 'EU', grantType: 'starszone', permissionType: 'edit', userId: ids.viewer },
      { grantCode: 'NA', grantType: 'starszone', permissionType: 'submit', userId: ids.viewer },
      { grantCode: 'create', grantType: 'rule', permissionType: 'edit', userId: ids.viewer },
    ]);
    const [row] = await app.database.db.select().from(users).where(eq(users.userId, ids.viewer!));
    expect(row).toMatchObject({ role: 'SUBMITTER', status: 'Enabled', email: 'viewer@example.com' });
    const [entry] = await auditOf('grant-change');
    expect(entry).toMatchObject({ username: 'admin', itemType: 'user', itemKey: 'viewer@example.com' });
    expect((entry!.summary as { role: unknown }).role).toEqual({ before: 'VIEWER', after: 'SUBMITTER' });
  });

  it("applies on the user's next call", async () => {
    const viewer = await as('viewer');
    await call('POST', '/api/user/save', { userId: ids.viewer, role: 'EDITOR', grants: [g('brand', 'VLT', 'edit'), g('starszone', 'NA', 'edit')] });
    const res = await app.inject({ method: 'GET', url: '/api/authorization/grant', headers: viewer });
    expect(res.json().obj.roles).toEqual([
      { role: 'EDITOR', types: ['view'], rules: [], brands: ['VLT'], starsZones: ['NA'] },
      { role: 'EDITOR', types: ['edit'], rules: [], brands: ['VLT'], starsZones: ['NA'] },
    ]);
  });

  it('refuses brand and stars zone grants that are not paired per level (400), storing nothing', async () => {
    const before = await grantRows(ids.editor!);
    const cases = [
      { grants: [g('brand', 'AUR', 'view')], text: 'view has brands but no stars zones' },
      { grants: [g('starszone', 'EU', 'view')], text: 'view has stars zones but no brands' },
      { grants: [g('brand', 'AUR', 'edit'), g('starszone', 'EU', 'view')], text: 'edit has brands but no stars zones' },
      { grants: [g('brand', 'AUR', 'view'), g('starszone', 'EU', 'view'), g('starszone', 'NA', 'submit')], text: 'submit has stars zones but no brands' },
    ];
    for (const c of cases) {
      const res = await call('POST', '/api/user/save', { userId: ids.editor, role: 'EDITOR', grants: c.grants });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('grantsUnpaired');
      expect(res.json().message).toBe(
        `For each of view, edit and submit, brand grants and stars zone grants must be both present or both absent: ${c.text}.`,
      );
    }
    expect(await grantRows(ids.editor!)).toEqual(before);
    expect(await auditOf('grant-change')).toEqual([]);
  });

  it('accepts rules on their own at a level (rules need no brand or zone pairing)', async () => {
    const res = await call('POST', '/api/user/save', {
      userId: ids.editor,
      role: 'EDITOR',
      grants: [g('brand', 'AUR', 'view'), g('starszone', 'EU', 'view'), g('rule', 'delete', 'submit')],
    });
    expect(res.statusCode).toBe(200);
    expect(await grantRows(ids.editor!)).toEqual(['brand:AUR:view', 'rule:delete:submit', 'starszone:EU:view']);
  });

  it('refuses users that are not enabled', async () => {
    for (const name of ['newbie', 'gone']) {
      const res = await call('POST', '/api/user/save', { userId: ids[name], role: 'VIEWER', grants: [] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'userNotEnabled', message: 'Only enabled users can be saved: enable the user first.' });
    }
  });

  it('a user without a role has no grants: grants with no role are refused, no role clears them', async () => {
    const refused = await call('POST', '/api/user/save', { userId: ids.viewer, role: null, grants: [g('brand', 'AUR', 'view'), g('starszone', 'EU', 'view')] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('noRoleNoGrants');
    const cleared = await call('POST', '/api/user/save', { userId: ids.viewer, role: null, grants: [] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual([]);
    const login = await app.inject({ method: 'POST', url: '/api/authorization/login', payload: { username: 'viewer', password: 'secret' } });
    expect(login.json()).toEqual({ error: 'noGrants', message: 'User has no grants' });
  });

  it('refuses unknown brands, zones and rules with the offending fields', async () => {
    const res = await call('POST', '/api/user/save', {
      userId: ids.viewer,
      role: 'VIEWER',
      grants: [g('brand', 'AUR', 'view'), g('brand', 'XXX', 'view'), g('starszone', 'MOON', 'view'), g('rule', 'fly', 'edit')],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { path: string }) => f.path)).toEqual(['body.grants.1.grantCode', 'body.grants.2.grantCode', 'body.grants.3.grantCode']);
    const bad = await call('POST', '/api/user/save', { userId: ids.viewer, role: 'KING', grants: [g('brand', 'AUR', 'admin')] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['body.role', 'body.grants.0.permissionType']));
  });

  it('answers 404 for an unknown user, and an admin cannot remove their own ADMIN role', async () => {
    expect((await call('POST', '/api/user/save', { userId: 99999, role: 'VIEWER', grants: [] })).statusCode).toBe(404);
    const own = await call('POST', '/api/user/save', { userId: ids.admin, role: 'VIEWER', grants: [] });
    expect(own.statusCode).toBe(422);
    expect(own.json()).toEqual({ error: 'ownAdminRole', message: 'You cannot remove your own administrator role.' });
    const keep = await call('POST', '/api/user/save', { userId: ids.admin, role: 'ADMIN', grants: [] });
    expect(keep.statusCode).toBe(200);
  });

  it('records nothing when nothing changes', async () => {
    const current = (await call('GET', '/api/user/')).json().find((u: { userId: number }) => u.userId === ids.editor);
    expect((await call('POST', '/api/user/save', current)).statusCode).toBe(200);
    expect(await auditOf('grant-change')).toEqual([]);
    const rows = await app.database.db
      .select()
      .from(userGrants)
      .where(and(eq(userGrants.userId, ids.editor!), eq(userGrants.grantType, 'rule')));
    expect(rows).toHaveLength(1);
  });
});

describe('access', () => {
  const calls: AdminCall[] = [
    ['GET', '/api/user/'],
    ['GET', '/api/user'],
    ['GET', '/api/user/allCreators'],
    ['GET', '/api/user/allNoGrants'],
    ['POST', '/api/user/insertCreator', { email: 'new.planner@example.com' }],
    ['POST', '/api/user/save', { userId: 2, role: 'VIEWER', grants: [] }],
    ['POST', '/api/user/2/enable'],
    ['POST', '/api/user/2/disable'],
  ];

  it('answers 403 to every non-admin, and changes nothing', async () => {
    await forbiddenToAll(['editor', 'viewer'], calls);
    expect((await app.database.db.select().from(users)).length).toBe(6);
  });

  it('answers 403 before looking at the body', async () => {
    const headers = await as('editor');
    expect((await call('POST', '/api/user/save', { nonsense: true }, headers)).statusCode).toBe(403);
  });

  it('answers 401 without a token', async () => {
    for (const [method, url, payload] of calls) {
      const res = await app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
