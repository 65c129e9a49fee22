import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth.service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { currentUser } from './auth.js';

/** What a service needs to do its work for one caller. */
export interface ServiceContext {
  db: Db;
  config: Config;
  jobs: JobRunner;
  user: AuthUser;
  requestId: string;
}

export function contextOf(app: FastifyInstance, request: FastifyRequest): ServiceContext {
  return { db: app.database.db, config: app.config, jobs: app.jobs, user: currentUser(request), requestId: request.id };
}
