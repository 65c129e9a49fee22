/**
 * The module calls the cluster page makes for 'Publish these modules first' (docs/LIFECYCLE.md
 * "Publish"): read the WIP modules, lock them, check and publish them, release the locks.
 */
import { z } from 'zod';
import { moduleCheckForPublishAnswerSchema, moduleDtoSchema, moduleLockResultSchema, type ModuleKey } from '@bo/shared/modules';
import { api } from '@/lib/api-client';

/** POST /api/module/details: the modules (brand and zones decide the submit right). */
export function getModules(keys: readonly ModuleKey[]) {
  return api.post('/module/details', keys, { schema: z.array(moduleDtoSchema), alertOnError: false });
}

/** POST /api/module/lock: a module is published only by the holder of its lock. */
export function lockModules(keys: readonly ModuleKey[]) {
  return api.post('/module/lock', keys, { schema: z.array(moduleLockResultSchema), alertOnError: false });
}

/** POST /api/module/unlock: releases the caller's own locks. */
export function unlockModules(keys: readonly ModuleKey[]) {
  return api.post('/module/unlock', keys, { alertOnError: false });
}

/** POST /api/module/checkForPublish: the modules the planning system would refuse. */
export function checkModulesForPublish(keys: readonly ModuleKey[]) {
  return api.post('/module/checkForPublish', keys, { schema: moduleCheckForPublishAnswerSchema, alertOnError: false });
}

const publishListAnswer = z.object({ errors: z.array(z.string()).optional(), message: z.string().optional(), jobId: z.number().optional() });

/** POST /api/module/publishList: all or none; `errors` when refused. */
export function publishModuleList(keys: readonly ModuleKey[]) {
  return api.post('/module/publishList', keys, { schema: publishListAnswer, alertOnError: false });
}
