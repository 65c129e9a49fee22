import { z } from 'zod';

/**
 * Every stable error key the server answers (contract §6), one list for the server (AppError keys are
 * typed by it) and the web app (which compares keys against it, never against a string typed by hand).
 */
export const ERROR_KEYS = [
  // generic, by status
  'badRequest',
  'unauthorized',
  'invalidToken',
  'forbidden',
  'notFound',
  'conflict',
  'payloadTooLarge',
  'tooManyResults',
  'unsupportedMediaType',
  'tooManyAttempts',
  'internalError',
  'serviceUnavailable',
  'methodNotAllowed',
  'notAcceptable',
  'requestTimeout',
  'uriTooLong',
  'headersTooLarge',
  // login and administration
  'credentialsInvalid',
  'noGrants',
  'noRoleNoGrants',
  'userNotFound',
  'userNotEnabled',
  'userAlreadyPresent',
  'notOnProviderList',
  'ownAccount',
  'ownAdminRole',
  'unknownGrantCode',
  'grantsUnpaired',
  'brandNotFound',
  'noBrand',
  'otherBrand',
  'releaseNotFound',
  'releaseExists',
  'releaseOpen',
  'releaseAlreadyClosed',
  'releaseAlreadyOpen',
  'releaseAlreadyPublished',
  // items and their lifecycle
  'moduleNotFound',
  'clusterNotFound',
  'monthNotFound',
  'monthNotAvailable',
  'monthClosed',
  'releaseClosed',
  'submitInProgress',
  'reopenRequired',
  'notWip',
  'moduleNotLocked',
  'clusterNotLocked',
  'clusterLocked',
  'modulesInWip',
  /** A save or publish that carries the version the editor loaded, and the item changed since (409). */
  'versionConflict',
  'publishBlocked',
  'cannotEditCluster',
  'moduleNotAllowedInCluster',
  'unknownClassification',
  'invalidComposition',
  'beingDeleted',
  'notPending',
  // creation
  'moduleAlreadyExists',
  'clusterAlreadyExists',
  'macroFamilyAlreadyExists',
  'invalidModule',
  'invalidCluster',
  'invalidGenericName',
  'invalidMacroFamily',
  'atLeastOneLia',
  'unknownLia',
  'storeNotFound',
  'searchTooVague',
  // classifications
  'invalidClassification',
  'classificationAlreadyExists',
  'classificationNotFound',
  /** Deleting a classification that live clusters carry, one of which the caller may not change now (403). */
  'classificationInUse',
  // deletion
  'invalidDeletionData',
  'invalidViewType',
  'noItemIds',
  'deleteNotAuthorized',
  'restoreNotAuthorized',
  // exports
  'templateNotFound',
  'exportNotFound',
  'exportNotReady',
  'exportFailed',
  'nothingToExport',
] as const;
export const errorKeySchema = z.enum(ERROR_KEYS);
export type ErrorKey = z.infer<typeof errorKeySchema>;

/** Every error the server answers: a stable key and a text for people (contract §6). */
export const errorResponseSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const ERROR_TEXTS = {
  credentialsInvalid: 'The credentials are invalid',
  noGrants: 'User has no grants',
  tooManyResults: 'The search returned too many elements',
  changeFilters: 'Change the filters and search again',
} as const;
