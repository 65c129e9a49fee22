import crypto from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerInputHygiene } from './plugins/input-hygiene.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerNoStore } from './plugins/no-store.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerStaticWeb } from './plugins/static-web.js';
import { JobRunner } from './jobs/job-runner.js';
import { jobRoutes } from './areas/jobs/jobs.routes.js';
import { createGateway, type PlanningGateway } from './items/lifecycle/planning-gateway.js';
import './plugins/context.js';
import { registerDraining } from './lib/graceful-shutdown.js';
import { authRoutes } from './auth/auth.routes.js';
import { registerSessionCleanup } from './auth/session-cleanup.js';
import { createTokenService, resolveSigningSecret } from './auth/token.js';
import { healthRoutes } from './areas/health/health.routes.js';
import { imageRoutes } from './areas/images/images.routes.js';
import { SkuPictures } from './lib/images/sku-pictures.js';
import { monthRoutes } from './areas/months/months.routes.js';
import { registerModuleJobs } from './items/module/module-copy.job.js';
import { moduleSnapshot } from './items/module/module-snapshot.js';
import { moduleLifecycleRoutes } from './items/module/modules.routes.js';
import { deletionRoutes } from './areas/deletion/deletion.routes.js';
import { registerClusterJobs } from './items/cluster/cluster-copy.job.js';
import { massiveEditRoutes } from './areas/massive-edit/massive-edit.routes.js';
import { registerMassiveEditJobs } from './areas/massive-edit/register-massive-edit-jobs.js';
import { clusterSnapshot } from './items/cluster/cluster-snapshot.js';
import { clusterLifecycleRoutes } from './items/cluster/clusters.routes.js';
import { clusterEditorRoutes } from './items/cluster/cluster-editor.routes.js';
import { suggestedClusterRoutes } from './items/cluster/suggested-clusters.routes.js';
import { registerDeletionJobs } from './areas/deletion/deletion.steps.js';
import { PUBLISH_JOB, publishJob } from './items/lifecycle/publish.job.js';
import { referenceDataRoutes } from './areas/reference-data/reference-data.routes.js';
import { searchRoutes } from './areas/search/search.routes.js';
import { creationRoutes } from './areas/creation/creation.routes.js';
import { classificationRoutes } from './areas/classifications/classifications.routes.js';
import { badgeRoutes } from './areas/badges/badges.routes.js';
import { pendingAreaRoutes } from './areas/pending-area/pending-area.routes.js';
import { itemVersionsRoutes } from './areas/item-versions/item-versions.routes.js';
import { discoAreaRoutes } from './areas/disco-area/disco-area.routes.js';
import { statisticsRoutes } from './areas/statistics/statistics.routes.js';
import { userRoutes } from './areas/admin/users.routes.js';
import { brandRoutes } from './areas/admin/brands.routes.js';
import { releaseRoutes } from './areas/admin/releases.routes.js';
import { workingAreaRoutes } from './areas/working-area/working-area.routes.js';
import { moduleInfoRoutes } from './areas/working-area/module-info.routes.js';
import { productFilterRoutes } from './items/module/product-filters.routes.js';
import { clusterOptionRoutes } from './areas/search/cluster-options.routes.js';
import { registerExportJobs } from './areas/exports/export-retention.js';
import { exportRoutes } from './areas/exports/exports.routes.js';
import { exportSearchRoutes } from './areas/search/export-search.routes.js';
import { exportHistoryRoutes } from './areas/exports/export-history.routes.js';
import { uploadRoutes } from './areas/uploads/uploads.routes.js';
import { registerUploadJobs } from './areas/uploads/uploads.service.js';
import { compactSearchChangesEvery, KeptAnswers } from './lib/kept-answers.js';
import { scopeVersion } from './lib/kept-answers.repository.js';
import { LiveHub } from './areas/live/live-hub.js';
import { liveRoutes } from './areas/live/live.routes.js';
import { sweepEvery } from './areas/live/live-sweeper.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** The live event streams of this process (areas/live, docs/LIVE.md). */
    liveHub: LiveHub;
    /** Stops this process's live sweeper (areas/live/live-sweeper.ts; the app's close does it too). */
    stopLiveSweeper: () => void;
    jobs: JobRunner;
    gateway: PlanningGateway;
  }
}

interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Logger on (JSON lines to stdout) unless LOG_LEVEL is 'silent'. */
  logger?: boolean;
  /** The planning system; by default the one PLANNING_SYSTEM names. */
  gateway?: PlanningGateway;
  /** The clock of date-dependent screens (the Deletion Area's month window); tests fix it. */
  now?: () => Date;
  /** Check the answers that skip the per-call zod check against their schemas (plugins/answers.ts); tests set it. */
  checkAnswers?: boolean;
  /** How many jobs the runner runs at once (job-runner.ts `concurrency`): the job process's WORKERS. */
  jobConcurrency?: number;
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the whole HTTP application (used by server.ts and by the tests through `inject`). */
export async function buildApp({ config, database, logger = true, gateway, now, checkAnswers = false, jobConcurrency = 1 }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && config.LOG_LEVEL !== 'silent' ? { level: config.LOG_LEVEL } : false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    },
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 50 * 1024 * 1024,
    // A hop count trusts that many proxies in front of the server (Fastify's types take it as a function).
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    // registerDraining answers the 503 itself, with the usual error body.
    return503OnClosing: false,
    // A malformed URL (`%`, `%c0%ae`) is a 400 in the usual shape, not Fastify's own body.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(400).send({ error: 'badRequest', message: 'The address of the request is not valid' });
    },
  });
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('checkAnswers', checkAnswers);
  // The home search's list answers kept while what they cover has not changed (lib/kept-answers.ts), and the
  // change log their versions are read from kept short (every process compacts it every 30 s; migration 0015).
  app.decorate('searchAnswers', new KeptAnswers(config.SEARCH_CACHE_MB * 1024 * 1024, (scope, since) => scopeVersion(database.db, scope, since)));
  const stopCompaction = compactSearchChangesEvery(database.db, 30_000, (error) => app.log.warn({ err: error }, 'search change log compaction failed'));
  app.addHook('onClose', (_instance, done) => {
    stopCompaction();
    done();
  });
  app.decorate('gateway', gateway ?? createGateway(config));
  // The runner is started by server.ts (or told that the job process runs the jobs); tests drive it with drain().
  app.decorate(
    'jobs',
    new JobRunner(database, {
      staleMs: config.JOB_STALE_SECONDS * 1000,
      concurrency: jobConcurrency,
      log: (msg, extra) => app.log.warn(extra ?? {}, msg),
      info: (msg, extra) => app.log.info(extra ?? {}, msg),
    }),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Hooks that do not wait on anything take a callback: an async hook costs every request a promise and a turn.
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // First: the 503 of a draining server and the 401 of the auth hook carry it too.
  registerNoStore(app);
  registerDraining(app);

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  const tokens = createTokenService(await resolveSigningSecret(database.db, config.JWT_SECRET), config.TOKEN_TTL_MINUTES);
  registerAuth(app, tokens);
  registerInputHygiene(app);
  await registerOpenApi(app);
  registerMetrics(app);

  await app.register(healthRoutes);
  await app.register(authRoutes(tokens));
  await app.register(referenceDataRoutes);
  await app.register(monthRoutes);
  // One cache of drawn SKU pictures for the picture route and the export job.
  const pictures = new SkuPictures();
  await app.register(imageRoutes, { pictures });
  await app.register(jobRoutes);
  await app.register(moduleLifecycleRoutes);
  await app.register(workingAreaRoutes);
  await app.register(moduleInfoRoutes);
  await app.register(productFilterRoutes);
  await app.register(clusterOptionRoutes);
  await app.register(clusterLifecycleRoutes);
  await app.register(clusterEditorRoutes);
  await app.register(suggestedClusterRoutes);
  await app.register(deletionRoutes, now ? { now } : {});
  await app.register(searchRoutes);
  await app.register(creationRoutes);
  await app.register(classificationRoutes);
  await app.register(badgeRoutes);
  await app.register(pendingAreaRoutes);
  await app.register(itemVersionsRoutes);
  await app.register(discoAreaRoutes);
  await app.register(statisticsRoutes);
  await app.register(userRoutes);
  await app.register(brandRoutes);
  await app.register(releaseRoutes);
  await app.register(exportRoutes);
  await app.register(exportSearchRoutes);
  await app.register(exportHistoryRoutes);
  await app.register(massiveEditRoutes);
  await app.register(uploadRoutes);
  // Live events (docs/LIVE.md): the streams of this process, ended when the server drains, and the sweeper of lapsed
  // leases and stale presence (every 15 s, sooner with a short lease).
  const liveHub = new LiveHub({ database, lockTtlMinutes: config.LOCK_TTL_MINUTES, observer: app.liveMetrics, log: app.log });
  app.decorate('liveHub', liveHub);
  await app.register(liveRoutes(tokens, liveHub));
  app.addDrainHook(() => liveHub.closeAll());
  // Before the listener closes: an open stream would hold the close until the client goes away.
  app.addHook('preClose', (done) => {
    liveHub.closeAll();
    done();
  });
  const stopSweeper = sweepEvery({
    db: database.db,
    presenceTtlSeconds: config.PRESENCE_TTL_SECONDS,
    openTabs: () => liveHub.tabIds(),
    onError: (error) => app.log.warn({ err: error }, 'live events: sweep failed'),
    everyMs: Math.min(15_000, Math.max(1000, (config.LOCK_LEASE_SECONDS * 1000) / 4)),
  });
  app.decorate('stopLiveSweeper', stopSweeper);
  app.addHook('onClose', async () => {
    stopSweeper();
    await liveHub.stop();
  });

  app.jobs.register(PUBLISH_JOB, publishJob(app.gateway, { module: moduleSnapshot, cluster: clusterSnapshot }));
  registerModuleJobs(app.jobs, config.LOCK_TTL_MINUTES);
  registerClusterJobs(app.jobs, config.LOCK_TTL_MINUTES);
  registerMassiveEditJobs(app.jobs, config.LOCK_TTL_MINUTES);
  registerDeletionJobs(app.jobs, database.db);
  registerUploadJobs(app.jobs, config.LOCK_TTL_MINUTES);
  registerExportJobs(app.jobs, database.db, { lockTtlMinutes: config.LOCK_TTL_MINUTES, pictures, retentionDays: config.EXPORT_RETENTION_DAYS });
  registerSessionCleanup(app.jobs, database.db);
  await registerStaticWeb(app, config.webDistDir);
  return app;
}
