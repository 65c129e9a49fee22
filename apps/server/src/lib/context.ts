import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { AuthUser } from '../modules/auth/auth.service.js';
import type { PlanningGateway } from '../modules/publishing/planning-gateway.js';
import { currentUser } from '../plugins/auth.js';

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

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
    gateway: PlanningGateway;
  }
}
