/**
 * The `job` event of a job that ended: one line in product words and where its result is in the web app
 * (apps/web/src/config/paths.ts): an export where its file is downloaded (PDF: the PDF Files Area; spreadsheets: the
 * export history), an import in the Import Data list, release files in the Upload Files list, a massive edit on its page.
 */
import type { z } from 'zod';
import type { jobEvent } from '@bo/shared/live-events';
import { COPY_MODULE_JOB } from '../../items/module/module-copy.job.js';
import { COPY_CLUSTER_JOB } from '../../items/cluster/cluster-copy.job.js';
import { PUBLISH_JOB } from '../../items/lifecycle/publish.job.js';
import type { EndedJob } from './live.repository.js';
import { FILE_LOADER_JOB, MODULE_IMPORT_JOB, CLUSTER_IMPORT_JOB, EXPORT_JOB, MASSIVE_EDIT_JOBS } from '../../jobs/job-kinds.js';

type JobEvent = z.infer<typeof jobEvent>;

interface JobWords {
  /** What the job is, as the notification names it ("Your export", "Import Module"). */
  what: string;
  link: string | null;
}

const isPdf = (payload: unknown) => typeof payload === 'object' && payload !== null && String((payload as { format?: unknown }).format ?? '').startsWith('pdf');

function wordsOf(job: EndedJob): JobWords {
  switch (job.kind) {
    case EXPORT_JOB:
      return isPdf(job.payload) ? { what: 'Your PDF export', link: '/pdf-area' } : { what: 'Your export', link: '/history' };
    case MODULE_IMPORT_JOB:
      return { what: 'Import Module', link: '/upload' };
    case CLUSTER_IMPORT_JOB:
      return { what: 'Import Cluster', link: '/upload' };
    case FILE_LOADER_JOB:
      return { what: 'The release files load', link: '/uploadTwo' };
    case MASSIVE_EDIT_JOBS.module:
    case MASSIVE_EDIT_JOBS.cluster:
    case MASSIVE_EDIT_JOBS.classification:
      return { what: 'Your massive edit', link: '/massive-edit-wi' };
    case COPY_MODULE_JOB:
      return { what: 'The module copy', link: null };
    case COPY_CLUSTER_JOB:
      return { what: 'The cluster copy', link: null };
    case PUBLISH_JOB:
      return { what: 'Your publish', link: null };
    default:
      return { what: 'Your job', link: null };
  }
}

export function jobNotice(job: EndedJob): JobEvent {
  const { what, link } = wordsOf(job);
  const title = job.status === 'DONE' ? `${what} is done` : `${what} failed`;
  return { id: String(job.id), type: job.kind, status: job.status, title, link };
}
