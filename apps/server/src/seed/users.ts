/**
 * The demo accounts of contract §4 with their grants, a few accounts that are not usable yet
 * (New, Disabled), and the identity provider's list of allowed e-mails.
 */
import type { PermissionType, RuleCode } from '@bo/shared/grants';
import type * as schema from '../db/schema.js';
import type { BatchWriters } from './batch-writer.js';
import { RULES } from '../db/product-data.js';
import { BRANDS, ZONE_CODES } from './reference-data.js';

interface DemoGrants {
  brands: readonly string[];
  zones: readonly string[];
  levels: readonly PermissionType[];
  rules?: readonly RuleCode[];
}

interface DemoUser {
  username: string;
  firstName: string;
  lastName: string;
  country: string;
  role: string | null;
  status: 'Enabled' | 'Disabled' | 'New';
  grants: DemoGrants | null;
}

const ALL_BRANDS = BRANDS.map((b) => b.code);
const ALL_RULES = RULES.map((r) => r.ruleCode);
export const EDITOR_BRANDS = ['AUR', 'VLT'] as const;
export const EDITOR_ZONES = ['EU', 'NA'] as const;
export const SUBMITTER_BRANDS = ['AUR', 'SLN', 'NRD'] as const;
export const SUBMITTER_ZONES = ['EU', 'LATAM'] as const;

export const DEMO_USERS: readonly DemoUser[] = [
  {
    username: 'admin',
    firstName: 'Ada',
    lastName: 'Marchetti',
    country: 'IT',
    role: 'ADMIN',
    status: 'Enabled',
    grants: { brands: ALL_BRANDS, zones: ZONE_CODES, levels: ['view', 'edit', 'submit'], rules: ALL_RULES },
  },
  {
    username: 'creator',
    firstName: 'Carla',
    lastName: 'Conti',
    country: 'IT',
    role: 'CREATOR',
    status: 'Enabled',
    grants: { brands: ALL_BRANDS, zones: ZONE_CODES, levels: ['view', 'edit', 'submit'], rules: ALL_RULES },
  },
  {
    username: 'editor',
    firstName: 'Enzo',
    lastName: 'Esposito',
    country: 'IT',
    role: 'EDITOR',
    status: 'Enabled',
    grants: { brands: EDITOR_BRANDS, zones: EDITOR_ZONES, levels: ['view', 'edit'] },
  },
  {
    username: 'submitter',
    firstName: 'Sara',
    lastName: 'Santoro',
    country: 'ES',
    role: 'SUBMITTER',
    status: 'Enabled',
    grants: { brands: SUBMITTER_BRANDS, zones: SUBMITTER_ZONES, levels: ['view', 'edit', 'submit'] },
  },
  {
    username: 'viewer',
    firstName: 'Vittorio',
    lastName: 'Villa',
    country: 'FR',
    role: 'VIEWER',
    status: 'Enabled',
    grants: { brands: ALL_BRANDS, zones: ZONE_CODES, levels: ['view'] },
  },
  { username: 'nina.nuova', firstName: 'Nina', lastName: 'Nuova', country: 'IT', role: null, status: 'New', grants: null },
  { username: 'noah.newman', firstName: 'Noah', lastName: 'Newman', country: 'US', role: null, status: 'New', grants: null },
  {
    username: 'dario.dori',
    firstName: 'Dario',
    lastName: 'Dori',
    country: 'DE',
    role: 'VIEWER',
    status: 'Disabled',
    grants: { brands: ['VLT'], zones: ['EU'], levels: ['view'] },
  },
];

/** On the provider's list but without an account yet: the e-mails an admin can create users for. */
const EXTRA_ALLOWED_EMAILS = [
  'new.planner@example.com',
  'planner.eu@example.com',
  'planner.na@example.com',
  'buyer.latam@example.com',
  'merchandiser.apac@example.com',
  'analyst@example.com',
  'assortment.lead@example.com',
  'category.sun@example.com',
  'category.optical@example.com',
  'intern@example.com',
];

const demoEmail = (username: string) => `${username}@example.com`;

const ACCOUNTS_CREATED = new Date('2026-01-05T09:00:00Z');

export async function writeUsers(
  passwordHash: string,
  writers: BatchWriters<Pick<typeof schema, 'users' | 'userGrants' | 'allowedEmails'>>,
): Promise<void> {
  for (const [i, user] of DEMO_USERS.entries()) {
    const userId = i + 1;
    await writers.users.add({
      userId,
      username: user.username,
      email: demoEmail(user.username),
      firstName: user.firstName,
      lastName: user.lastName,
      country: user.country,
      // New users have not set a password yet.
      passwordHash: user.status === 'New' ? null : passwordHash,
      role: user.role,
      status: user.status,
      createdAt: ACCOUNTS_CREATED,
      updatedAt: ACCOUNTS_CREATED,
    });
    const g = user.grants;
    if (!g) continue;
    for (const permissionType of g.levels) {
      for (const code of g.brands) await writers.userGrants.add({ userId, grantType: 'brand', grantCode: code, permissionType });
      for (const code of g.zones) await writers.userGrants.add({ userId, grantType: 'starszone', grantCode: code, permissionType });
    }
    for (const rule of g.rules ?? []) {
      const level = RULES.find((r) => r.ruleCode === rule)!.permissionType;
      await writers.userGrants.add({ userId, grantType: 'rule', grantCode: rule, permissionType: level });
    }
  }
  const emails = [...DEMO_USERS.map((u) => demoEmail(u.username)), ...EXTRA_ALLOWED_EMAILS];
  for (const email of emails) await writers.allowedEmails.add({ email, addedAt: ACCOUNTS_CREATED });
}
