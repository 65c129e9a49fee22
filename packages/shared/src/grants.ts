import { z } from 'zod';

export const PERMISSION_TYPES = ['view', 'edit', 'submit'] as const;
export const RULE_CODES = ['reopen', 'create', 'delete', 'import'] as const;
export const ROLES = ['ADMIN', 'CREATOR', 'EDITOR', 'SUBMITTER', 'VIEWER'] as const;

export const permissionTypeSchema = z.enum(PERMISSION_TYPES);
const ruleCodeSchema = z.enum(RULE_CODES);
export type PermissionType = z.infer<typeof permissionTypeSchema>;
export type RuleCode = z.infer<typeof ruleCodeSchema>;

/**
 * An authorisation grant as the browser receives it (`obj.roles`): one grant per permission level
 * the user holds, with the brands, stars zones and rules granted at that level.
 */
export const grantSchema = z.object({
  role: z.string(),
  types: z.array(permissionTypeSchema),
  rules: z.array(ruleCodeSchema),
  brands: z.array(z.string()),
  starsZones: z.array(z.string()),
});
export type Grant = z.infer<typeof grantSchema>;
