/** Manage Users (spec part 1 §2, §4 "User", §5, §7 "Users", §8; part 2 §6): payloads and texts. */
import { z } from 'zod';
import { permissionTypeSchema, ROLES } from './grants.js';
import { coercedInt4Id, int4Id } from './numbers.js';

const USER_STATUSES = ['Enabled', 'Disabled', 'New'] as const;
const userStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof userStatusSchema>;

const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** What a grant row is about: a brand, a stars zone or a rule. */
export const GRANT_TYPES = ['brand', 'starszone', 'rule'] as const;
const grantTypeSchema = z.enum(GRANT_TYPES);
export type GrantType = z.infer<typeof grantTypeSchema>;

/** One stored grant of a user (spec part 1 §3 "Grant (user)"). */
const userGrantSchema = z.object({
  grantCode: z.string().min(1).max(40),
  grantType: grantTypeSchema,
  permissionType: permissionTypeSchema,
  userId: z.number().int(),
});
export type UserGrant = z.infer<typeof userGrantSchema>;

/** A user as Manage Users shows it (spec part 1 §3 "User"), with the role and stored grants. */
export const userSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: userStatusSchema,
  role: roleSchema.nullable(),
  country: z.string().nullable(),
  grants: z.array(userGrantSchema),
});
export type User = z.infer<typeof userSchema>;

/**
 * POST /user/save: the user object with its grants. Only `role` and `grants` change here (the e-mail
 * is the identity, the status has its own calls); other fields of the object are accepted and ignored.
 * A grant's `userId` may be left out: the grants belong to `userId`.
 */
export const userSaveSchema = z.object({
  userId: int4Id(),
  role: roleSchema.nullable(),
  grants: z.array(userGrantSchema.extend({ userId: int4Id().optional() })).max(2000),
});
export type UserSave = z.infer<typeof userSaveSchema>;
/** The answer of /user/save: the grants as stored (implied view grants included). */
export const userSaveResponseSchema = z.array(userGrantSchema);

/** A standard e-mail pattern (the one of HTML's type=email, with a dot in the domain). */
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
export const EMAIL_MAX_LENGTH = 254;

export const isValidEmail = (value: string) => value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value.trim());

/** New user {email} must match a standard e-mail pattern; it is lowercased (part 1 §5, §7). */
export const createUserRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH)
    .regex(EMAIL_PATTERN, 'Enter a valid e-mail address'),
  country: z.string().trim().min(2).max(3).nullable().optional(),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

export const createUserResponseSchema = z.object({ message: z.string(), user: userSchema });
export type CreateUserResponse = z.infer<typeof createUserResponseSchema>;

/** POST /user/{userId}/enable and /disable answer the status. */
export const userStatusResponseSchema = z.object({ userId: z.number().int(), status: userStatusSchema });
export const userIdParamsSchema = z.object({ userId: coercedInt4Id() });

/** The texts of user creation (part 1 §8) and of the save rules (part 1 §5). */
export const USER_TEXTS = {
  added: 'The user has been added',
  notOnProviderList: "The user cannot be created because it is not on the provider's list",
  alreadyPresent: 'The user is already present and can be edited',
  notEnabled: 'Only enabled users can be saved: enable the user first.',
  noRoleNoGrants: 'A user without a role has no grants: choose a role or remove the grants.',
  ownAdminRole: 'You cannot remove your own administrator role.',
  ownAccount: 'You cannot disable your own account.',
} as const;
