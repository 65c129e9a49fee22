/**
 * Manage Users: the list, creation from the provider's list, enable/disable, and the role and grants
 * of the permission popup. Admin only (the routes' hook). Every change is one transaction and is audited.
 */
import { isBrandHolderCounted } from '@bo/shared/brands';
import { isAdminRole } from '@bo/shared/permissions';
import { pairingMessage, pairingProblems, withImpliedView, type GrantRowLike } from '@bo/shared/user-grants';
import { USER_TEXTS, type CreateUserRequest, type User, type UserGrant, type UserSave, type UserStatus } from '@bo/shared/users';
import { audit } from '../../lib/audit.repository.js';
import type { ServiceContext } from '../../plugins/context.js';
import { badRequest, conflict, isUniqueViolation, notFound, ruleBroken } from '../../lib/errors.js';
import * as repo from '../../auth/users.repository.js';

export const listUsers = (ctx: ServiceContext) => repo.listUsers(ctx.db);

/** Holds a brand or stars zone grant (what login needs, besides a role). */
const holdsScope = (u: User) => u.grants.some((g) => g.grantType !== 'rule');

/** Users a brand can be given to: enabled, with a role, not administrators (who hold every brand). */
export async function listCreators(ctx: ServiceContext): Promise<User[]> {
  return (await repo.listUsers(ctx.db)).filter(isBrandHolderCounted);
}

/** Users whose grants are empty, so that login answers 'User has no grants': no role, or no brand or zone. */
export async function listUsersWithoutGrants(ctx: ServiceContext): Promise<User[]> {
  return (await repo.listUsers(ctx.db)).filter((u) => u.role === null || (!isAdminRole(u.role) && !holdsScope(u)));
}

/**
 * Creates a user by e-mail (lowercased by the schema). An existing user answers 409 'already present';
 * an e-mail that is not on the identity provider's list answers 422 (part 1 §8).
 */
export async function createUser(ctx: ServiceContext, input: CreateUserRequest) {
  const email = input.email.trim().toLowerCase();
  const country = input.country ? input.country.toUpperCase() : null;
  try {
    return await ctx.db.transaction(async (tx) => {
      if (await repo.findUserByLogin(tx, email)) throw conflict(USER_TEXTS.alreadyPresent, 'userAlreadyPresent');
      if (!(await repo.isAllowedEmail(tx, email))) throw ruleBroken('notOnProviderList', USER_TEXTS.notOnProviderList);
      if (country && !(await repo.countryExists(tx, country))) {
        throw badRequest(`Unknown country ${country}`, [{ path: 'body.country', message: 'Unknown country' }]);
      }
      const row = await repo.insertUser(tx, { email, country });
      await audit(tx, { username: ctx.user.username, action: 'user-create', itemType: 'user', itemKey: email, summary: { userId: row.userId, country }, requestId: ctx.requestId });
      return { message: USER_TEXTS.added, user: repo.toUser(row, []) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(USER_TEXTS.alreadyPresent, 'userAlreadyPresent');
    throw error;
  }
}

/** Enable or disable (part 1 §4 "User"). An admin cannot disable their own account. */
export async function setUserStatus(ctx: ServiceContext, userId: number, status: Extract<UserStatus, 'Enabled' | 'Disabled'>) {
  return ctx.db.transaction(async (tx) => {
    const user = await repo.findUser(tx, userId, true);
    if (!user) throw notFound(`The user ${userId} does not exist`, 'userNotFound');
    if (status === 'Disabled' && user.userId === ctx.user.userId) throw ruleBroken('ownAccount', USER_TEXTS.ownAccount);
    if (user.status !== status) {
      await repo.updateUser(tx, userId, { status });
      await audit(tx, {
        username: ctx.user.username,
        action: status === 'Enabled' ? 'user-enable' : 'user-disable',
        itemType: 'user',
        itemKey: user.email,
        summary: { userId, from: user.status, to: status },
        requestId: ctx.requestId,
      });
    }
    return { userId, status };
  });
}

type GrantInput = Omit<UserGrant, 'userId'>;
const strip = (g: GrantRowLike): GrantInput => ({ grantType: g.grantType, grantCode: g.grantCode, permissionType: g.permissionType });
const key = (g: GrantRowLike) => `${g.grantType}|${g.grantCode}|${g.permissionType}`;

/** Grant codes that name no brand, stars zone or rule: 400 with the offending fields. */
async function assertKnownCodes(tx: Parameters<typeof repo.grantableCodes>[0], grants: readonly GrantRowLike[]) {
  const known = await repo.grantableCodes(tx);
  const fields = grants
    .map((g, i) => ({ g, i }))
    .filter(({ g }) => !known[g.grantType].has(g.grantCode))
    .map(({ g, i }) => ({ path: `body.grants.${i}.grantCode`, message: `Unknown ${g.grantType} ${g.grantCode}` }));
  if (fields.length) throw badRequest(`Unknown grant codes: ${fields.map((f) => f.message.replace(/^Unknown /, '')).join(', ')}`, fields, 'unknownGrantCode');
}

/**
 * Saves the role and grants of the permission popup (part 1 §5): only for an enabled user; edit and
 * submit imply view; for each level, brand and stars zone grants are both present or both absent;
 * a user without a role has no grants. Answers the grants as stored.
 */
export async function saveUser(ctx: ServiceContext, body: UserSave): Promise<UserGrant[]> {
  return ctx.db.transaction(async (tx) => {
    const user = await repo.findUser(tx, body.userId, true);
    if (!user) throw notFound(`The user ${body.userId} does not exist`, 'userNotFound');
    if (user.status !== 'Enabled') throw badRequest(USER_TEXTS.notEnabled, undefined, 'userNotEnabled');
    if (body.role === null && body.grants.length > 0) throw badRequest(USER_TEXTS.noRoleNoGrants, undefined, 'noRoleNoGrants');
    if (user.userId === ctx.user.userId && isAdminRole(user.role) && !isAdminRole(body.role)) {
      throw ruleBroken('ownAdminRole', USER_TEXTS.ownAdminRole);
    }
    await assertKnownCodes(tx, body.grants);
    const grants = withImpliedView(body.grants.map(strip), strip);
    const problems = pairingProblems(grants);
    if (problems.length) throw badRequest(pairingMessage(problems), undefined, 'grantsUnpaired');

    const before = (await repo.grantsOf(tx, [user.userId])).get(user.userId) ?? [];
    const beforeKeys = new Set(before.map(key));
    const afterKeys = new Set(grants.map(key));
    const added = grants.filter((g) => !beforeKeys.has(key(g)));
    const removed = before.filter((g) => !afterKeys.has(key(g))).map(strip);
    const roleBefore = repo.roleOf(user.role);
    if (added.length || removed.length || roleBefore !== body.role) {
      await repo.updateUser(tx, user.userId, { role: body.role });
      await repo.replaceGrants(tx, user.userId, grants);
      await audit(tx, {
        username: ctx.user.username,
        action: 'grant-change',
        itemType: 'user',
        itemKey: user.email,
        summary: { userId: user.userId, role: roleBefore !== body.role ? { before: roleBefore, after: body.role } : undefined, added, removed },
        requestId: ctx.requestId,
      });
    }
    return grants.map((g) => ({ ...g, userId: user.userId }));
  });
}
