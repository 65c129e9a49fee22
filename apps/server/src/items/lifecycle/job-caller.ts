/**
 * Who a job works for: its creator with the grants they hold now (none when disabled or gone). Jobs
 * of the lifecycle core (copy, massive edit) check rights again at job time with these.
 */
import type { Grant } from '@bo/shared/grants';
import type { Queryable } from '../../db/client.js';
import { findUserByUsername, loadGrants } from '../../auth/users.repository.js';
import type { ServiceContext } from '../../plugins/context.js';

export interface JobCaller {
  username: string;
  grants: Grant[];
  requestId?: string | undefined;
}

export async function currentCaller(db: Queryable, createdBy: string, requestId: string | undefined): Promise<JobCaller> {
  const user = await findUserByUsername(db, createdBy);
  const grants = user && user.status === 'Enabled' ? await loadGrants(db, user) : [];
  return { username: user?.username ?? createdBy, grants, requestId };
}

/** The caller of a request, as the publication and audit helpers of the core name it. */
export const requestCaller = (ctx: Pick<ServiceContext, 'user' | 'requestId'>): Pick<JobCaller, 'username' | 'requestId'> => ({
  username: ctx.user.username,
  requestId: ctx.requestId,
});
