/**
 * Module calls that more than one screen makes (the module page, and the cluster page's "Publish these
 * modules first"), written once. A screen's other calls stay in its feature's api/ folder.
 */
import { z } from 'zod';
import {
  moduleCheckForPublishAnswerSchema,
  moduleDtoSchema,
  moduleLockResultSchema,
  modulePublishListAnswerSchema,
  type ModuleCheckForPublish,
  type ModuleKey,
  type ModuleSaveBody,
} from '@bo/shared/modules';
import { api } from './api-client';

export type ModuleLockResult = z.infer<typeof moduleLockResultSchema>;

/** POST /api/module/details: the modules by key, with their SKUs (brand and zones decide the rights). */
export function getModuleDetails(keys: readonly ModuleKey[]) {
  return api.post('/module/details', keys, { schema: z.array(moduleDtoSchema), alertOnError: false });
}

/** POST /api/module/lock: takes (or renews) the locks; `acquired: false` means read-only. (Release on leaving: components/editor/use-lock-keeper.) */
export function lockModules(keys: readonly ModuleKey[]) {
  return api.post('/module/lock', keys, { schema: z.array(moduleLockResultSchema), alertOnError: false });
}

/** POST /api/module/unlock: releases the caller's own locks. */
export function unlockModules(keys: readonly ModuleKey[]) {
  return api.post('/module/unlock', keys, { alertOnError: false });
}

/** POST /api/module/checkForPublish: the modules the planning system would refuse, with their reasons (nothing is sent). */
export function checkModulesForPublish(items: ModuleCheckForPublish) {
  return api.post('/module/checkForPublish', items, { schema: moduleCheckForPublishAnswerSchema, alertOnError: false });
}

/** POST /api/module/publishList: all or nothing; `errors` when refused. */
export function publishModuleList(bodies: readonly ModuleSaveBody[]) {
  return api.post('/module/publishList', bodies, { schema: modulePublishListAnswerSchema, alertOnError: false });
}
