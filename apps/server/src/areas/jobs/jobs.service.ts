import type { JobStatus } from '@bo/shared/jobs';
import { isAdmin, sameUser } from '@bo/shared/permissions';
import type { ServiceContext } from '../../plugins/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { findJob } from '../../jobs/jobs.repository.js';

/**
 * GET /api/jobs/:id: the progress of long work, for the user who started it (or an admin). A resumable
 * job's checkpoint is its own business and is not shown.
 */
export async function jobStatus(ctx: Pick<ServiceContext, 'db' | 'user'>, id: number): Promise<JobStatus> {
  const job = await findJob(ctx.db, id);
  if (!job) throw notFound('No such job');
  if (!sameUser(job.createdBy, ctx.user.username) && !isAdmin(ctx.user.grants)) throw forbidden('This job belongs to another user');
  const result = job.result as { checkpoint?: unknown } | null;
  return {
    id: job.id,
    kind: job.kind,
    status: job.status as JobStatus['status'],
    progress: job.progress,
    response: job.response,
    result: result && 'checkpoint' in result ? null : result,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt ? job.finishedAt.toISOString() : null,
  };
}
