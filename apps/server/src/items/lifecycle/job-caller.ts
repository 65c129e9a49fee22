/**
 * Who a job works for: its creator with the grants they hold now (none when disabled or gone). Jobs
 * of the lifecycle core (copy, massive edit) check rights again at job time with these.
 */
import type { Grant } from '@bo/shared/grants';
import type { Queryable } from '../../db/client.js';
import { findUserByUsername, loadGrants } from '../../auth/users.repository.js';

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
