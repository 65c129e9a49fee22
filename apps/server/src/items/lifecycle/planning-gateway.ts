import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.js';
import { clusterPlanningReasons, moduleBlockReasons } from './publish-checks.js';

/** One item sent to the planning system. */
export interface Submission {
  itemType: 'module' | 'cluster';
  itemKey: string;
  monthId: string;
  jobId: number;
  /** What is submitted: the item's composition as the planning system needs it. */
  payload: Record<string, unknown>;
}

export type GatewayAnswer = { accepted: true } | { accepted: false; errors: string[] };

export interface PlanningGateway {
  submit(submission: Submission): Promise<GatewayAnswer>;
}

/**
 * The checks the planning system applies before it accepts an item (the outbox gateway applies them
 * itself, so that rejections happen and can be tested without the real system). The rules are those of
 * publish-checks.ts, which the publish calls also run before anything is sent.
 */
export function planningSystemChecks(submission: Submission): string[] {
  const p = submission.payload as { skus?: { upc: string; sapStatus: string | null }[]; stores?: unknown[]; modules?: { moduleName: string }[] };
  const reasons =
    submission.itemType === 'module'
      ? moduleBlockReasons({ skus: p.skus ?? [] })
      : clusterPlanningReasons({ storeCount: (p.stores ?? []).length, modules: p.modules ?? [] });
  return reasons.map((r) => r.message);
}

/** PLANNING_SYSTEM=outbox: each submission becomes a JSON file under DATA_DIR/outbox, acknowledged after a delay. */
export function outboxGateway(dataDir: string, delayMs: number): PlanningGateway {
  const dir = path.join(dataDir, 'outbox');
  return {
    async submit(s) {
      await fs.mkdir(dir, { recursive: true });
      const safe = `${s.itemType}-${s.itemKey}-${s.monthId}-job${s.jobId}`.replace(/[^\w.-]/g, '_');
      // Same name on a retry of the same job: writing again is harmless.
      await fs.writeFile(path.join(dir, `${safe}.json`), JSON.stringify({ ...s, submittedAt: new Date().toISOString() }, null, 2));
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const errors = planningSystemChecks(s);
      return errors.length ? { accepted: false, errors } : { accepted: true };
    },
  };
}

/**
 * PLANNING_SYSTEM=http: POSTs the submission as JSON. A 2xx answer accepts, unless its body says
 * `{ accepted: false, errors: [...] }`; a 4xx answer rejects with the body's `errors` or `message`.
 * Network failures and 5xx throw, so the job fails (and is retried when the runner retries it).
 */
export function httpGateway(url: string): PlanningGateway {
  return {
    async submit(s) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(s) });
      const body = (await res.json().catch(() => ({}))) as { accepted?: boolean; errors?: string[]; message?: string };
      if (res.status >= 500) throw new Error(`Planning system answered ${res.status}`);
      if (res.ok && body.accepted !== false) return { accepted: true };
      const errors = body.errors?.length ? body.errors : [body.message ?? `Planning system rejected the item (${res.status})`];
      return { accepted: false, errors };
    },
  };
}

export function createGateway(config: Config): PlanningGateway {
  if (config.PLANNING_SYSTEM === 'http') {
    if (!config.PLANNING_SYSTEM_URL) throw new Error('PLANNING_SYSTEM=http needs PLANNING_SYSTEM_URL');
    return httpGateway(config.PLANNING_SYSTEM_URL);
  }
  return outboxGateway(config.dataDir, config.PLANNING_SYSTEM_DELAY_MS);
}
