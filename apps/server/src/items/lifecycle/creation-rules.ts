/**
 * The rules every item creation shares (the create calls and the imports, docs/IMPORTS.md): the messages,
 * the month is open, the reference codes exist. The kinds' own rules are items/module/module-creation.ts
 * and items/cluster/cluster-creation.ts.
 */
import { compareMonthIds } from '@bo/shared/months';
import type { Queryable } from '../../db/client.js';
import { notFound, ruleBroken } from '../../lib/errors.js';
import { monthStateOf, type MonthState } from './months.repository.js';
import * as repo from './creation.repository.js';

export const CREATION_MESSAGES = {
  monthUnknown: (m: string) => `The month ${m} does not exist.`,
  monthClosed: (m: string) => `The month ${m} is closed: nothing can be created in it.`,
  releaseClosed: (m: string) => `The release of the month ${m} is closed: nothing can be created in it.`,
  unknown: (what: string, codes: readonly string[]) => `Unknown ${what}: ${codes.join(', ')}`,
  nameTaken: (what: 'module name' | 'cluster id', key: string, monthIds: readonly string[]) =>
    `The ${what} ${key} already exists in ${[...new Set(monthIds)].sort(compareMonthIds).join(', ')}.`,
  labelTaken: (what: 'module' | 'cluster', label: string, key: string, monthId: string) =>
    `The ${what} label ${label} is already used by the ${what} ${key} in ${monthId}.`,
  familyExists: (name: string) => `The macro family ${name} already exists.`,
  noFamilyRight: "You don't have the right to create macro families.",
  storeUnknown: (sap: string) => `No store has the SAP code ${sap}.`,
  storeMismatch: (sap: string, jda: string) => `The SAP code ${sap} belongs to the store ${jda}.`,
  storeCustomer: (sap: string, customer: string) => `The store ${sap} belongs to the Stars customer ${customer}.`,
  storeSegment: (sap: string, segment: string) => `The store ${sap} has the segment ${segment}.`,
  storeZone: (sap: string, zone: string) => `The store ${sap} is in the stars zone ${zone}, which is not one of the cluster's stars zones.`,
  duplicateInRequest: (key: string) => `The cluster id ${key} is given twice.`,
  releaseUnknown: (id: string) => `The release ${id} does not exist.`,
} as const;

/** Several reasons go in one message, separated by ';' (the form shows one per line). */
export const joined = (messages: readonly string[]) => messages.join(';');

export async function assertMonthWritable(db: Queryable, monthId: string): Promise<MonthState> {
  const month = await monthStateOf(db, monthId);
  if (!month.exists) throw notFound(CREATION_MESSAGES.monthUnknown(monthId), 'monthNotFound');
  if (month.releaseClosed) throw ruleBroken('releaseClosed', CREATION_MESSAGES.releaseClosed(monthId));
  if (!month.open) throw ruleBroken('monthClosed', CREATION_MESSAGES.monthClosed(monthId));
  return month;
}

/** Answers the codes that do not exist, once each, in the order given. */
export type UnknownOf = (db: Queryable, codes: readonly string[]) => Promise<string[]>;

/** The unknown codes of a reference table checked through creation's repository. */
export const unknownIn =
  (table: Parameters<typeof repo.existingCodes>[1]): UnknownOf =>
  async (db, codes) => {
    const known = await repo.existingCodes(db, table, codes);
    return [...new Set(codes)].filter((c) => !known.has(c));
  };

/** Reference codes that do not exist, as messages. */
export async function unknownCodes(db: Queryable, checks: readonly [UnknownOf, string, readonly string[]][]): Promise<string[]> {
  const messages: string[] = [];
  for (const [unknownOf, what, codes] of checks) {
    const missing = await unknownOf(db, codes);
    if (missing.length) messages.push(CREATION_MESSAGES.unknown(what, missing));
  }
  return messages;
}
