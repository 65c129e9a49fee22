import { formatMonthId } from '@bo/shared/months';
import type { JobRunner } from '../../jobs/job-runner.js';
import { copyJob, type CopyKind } from '../lifecycle/copy-job.js';
import { moduleKind } from './module-kind.js';
import { modulePublishBlockers } from '../lifecycle/publish-blockers.js';
import { findModuleAnyState, writeModuleCopy } from './module-copy.repository.js';
import type { ModuleRow } from './modules.repository.js';

export const COPY_MODULE_JOB = 'copy-module';

/** What is specific to copying a module; the job itself is the lifecycle core's copyJob. */
export const moduleCopy: CopyKind<ModuleRow> & { keyField: 'moduleName' } = {
  kind: moduleKind,
  keyField: 'moduleName',
  jobKind: COPY_MODULE_JOB,
  texts: {
    sourceGone: () => 'The module no longer exists in its source month',
    notAllowed: (month) => `You don't have the right to copy the module in ${formatMonthId(month)}`,
    monthUnknown: (month) => `The month ${formatMonthId(month)} does not exist`,
    monthClosed: (month) => `The month ${formatMonthId(month)} is closed`,
    releaseClosed: (month) => `The release of ${formatMonthId(month)} is closed`,
    beingDeleted: (month) => `The module is being deleted in ${formatMonthId(month)}`,
    locked: (owner, month) => `${owner} is editing the module in ${formatMonthId(month)}`,
    submitInProgress: (month) => `The module is being submitted in ${formatMonthId(month)}`,
    publishNotAllowed: () => "Copied, but you don't have the right to publish it",
    notWip: () => 'Copied, but only modules in WIP can be published',
    copiedLine: (name, months) => `Copied module ${name} for the months: ${months.map(formatMonthId).join(', ')}`,
    failedLine: (name, months, message) => `Unable to copy the module ${name} for the months: ${months.map(formatMonthId).join(', ')} (${message})`,
  },
  findAnyState: (tx, key) => findModuleAnyState(tx, { moduleName: key.itemKey, monthId: key.monthId }),
  async write(tx, { source, existing, destination, username, createdAfterDelete }) {
    const skus = await writeModuleCopy(tx, source, existing, destination, username, createdAfterDelete);
    return { warnings: [], summary: { overwritten: !!existing, skus } };
  },
  async publishBlockers(tx, rows) {
    const blocked = await modulePublishBlockers(tx, rows);
    return new Map([...blocked].map(([id, reasons]) => [id, `Copied, but not published: ${reasons.map((r) => r.message).join('; ')}`]));
  },
};

/** Registers the module job kinds on the runner. */
export function registerModuleJobs(jobs: JobRunner, lockTtlMinutes: number): void {
  jobs.register(COPY_MODULE_JOB, copyJob(jobs, moduleCopy, lockTtlMinutes));
}
