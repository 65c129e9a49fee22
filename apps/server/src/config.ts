import path from 'node:path';
import { z } from 'zod';

/** Every environment variable the server reads, validated once at start. Documented in README "Configuration". */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
  /** Server processes on one port (lib/workers.ts); unset: 1 on the embedded database, the number of cores on PostgreSQL. */
  WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  JWT_SECRET: z.string().min(32).optional(),
  TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).default(360),
  DEMO_PASSWORD: z.string().min(1).default('demo'),
  DEMO_DATA: z.enum(['auto', 'always', 'never']).default('auto'),
  DEMO_SCALE: z.coerce.number().positive().max(100).default(1),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOCK_TTL_MINUTES: z.coerce.number().min(1).default(120),
  /** A lock renewed by its holder's open page (PUT /api/presence) lives this long after the last renewal (docs/LIVE.md). */
  LOCK_LEASE_SECONDS: z.coerce.number().int().min(5).max(86400).default(120),
  /** What a tab has open is forgotten when not renewed for this long (docs/LIVE.md "Presence"). */
  PRESENCE_TTL_SECONDS: z.coerce.number().int().min(5).max(86400).default(90),
  /** Turns GET /api/metrics on; the scraper sends it as a bearer token (plugins/metrics.ts). */
  METRICS_TOKEN: z.string().min(16).max(200).optional(),
  MAX_SEARCH_RESULTS: z.coerce.number().int().min(1).default(3000),
  /** The home search's list answers kept per process while what they cover has not changed, in MB; 0 keeps none (lib/kept-answers.ts). */
  SEARCH_CACHE_MB: z.coerce.number().min(0).max(4096).default(64),
  PLANNING_SYSTEM: z.enum(['outbox', 'http']).default('outbox'),
  PLANNING_SYSTEM_URL: z.string().optional(),
  PLANNING_SYSTEM_DELAY_MS: z.coerce.number().int().min(0).default(1500),
  /** The separate front office (contract §1); unset = no Frontoffice menu entry (this server does not serve it). */
  FRONT_OFFICE_URL: z.string().trim().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  JOB_STALE_SECONDS: z.coerce.number().min(1).default(15),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10000),
  EXPORT_WAIT_MS: z.coerce.number().int().min(0).default(60000),
  /** Exports (their files) older than this are removed by a periodic step (docs/exports.md "Retention"). */
  EXPORT_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** Import Data (docs/IMPORTS.md "Limits"): the largest file accepted, in MB (413 past it). */
  UPLOAD_MAX_MB: z.coerce.number().positive().max(1024).default(20),
  /** Upload Files (docs/IMPORTS.md "Upload Files"): the largest release file accepted, in MB (400 past it); streamed, never whole in memory. */
  RELEASE_FILE_MAX_MB: z.coerce.number().positive().max(4096).default(500),
  /** The most a workbook may expand to (the sum of its zip entries), in MB: a zip bomb is refused unread. */
  UPLOAD_MAX_EXPANDED_MB: z.coerce.number().positive().max(4096).default(200),
  /** The most rows a workbook's sheets may hold together. */
  UPLOAD_MAX_ROWS: z.coerce.number().int().positive().default(200000),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (parsed === undefined) ctx.addIssue({ code: 'custom', message: 'TRUST_PROXY: false, true, a hop count, or a comma-separated list of addresses/CIDRs' });
      return parsed ?? false;
    }),
});

/**
 * Which proxies may set X-Forwarded-For / -Proto (contract §8). Unset or `false`: none, so the client
 * address is the socket's and a forged header cannot lift a login block. `true` trusts any sender (only
 * behind a proxy that strips the header), a number trusts that many hops, otherwise a comma-separated
 * list of addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`). Undefined means unreadable.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string | undefined {
  const v = value?.trim() ?? '';
  if (v === '' || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const parts = v.split(',').map((p) => p.trim()).filter(Boolean);
  const address = /^(?:[\d.]+|[\da-f:]+)(?:\/\d{1,3})?$/i;
  return parts.length > 0 && parts.every((p) => address.test(p)) ? parts.join(',') : undefined;
}

export type Config = z.infer<typeof envSchema> & { dataDir: string; webDistDir: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.parse(env);
  const dataDir = path.resolve(overrides.DATA_DIR ?? parsed.DATA_DIR);
  const webDistDir = path.resolve(
    overrides.WEB_DIST_DIR ?? parsed.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname,
  );
  return { ...parsed, ...overrides, dataDir, webDistDir };
}
