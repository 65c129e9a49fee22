import {
  EXPORT_TEXTS,
  exportStartedSchema,
  isMassiveExport,
  isPdfExport,
  isPhotoExport,
  type ClusterExportItem,
  type ExportFormat,
  type ExportStarted,
  type ModuleExportItem,
} from '@bo/shared/exports';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { saveFile } from '@/lib/download';
import { waitForJob, type Job } from '@/lib/jobs';
import { fileNameOf } from '../logic/export-format';

export type { ClusterExportItem, ModuleExportItem };

/** What is exported: modules (`/module`) or clusters (`/cluster`), each with its own item keys. */
export type ExportTarget = { type: 'module'; items: ModuleExportItem[] } | { type: 'cluster'; items: ClusterExportItem[] };

export type ExportRequest = ExportTarget & {
  format: ExportFormat;
  templateId: number | null;
  status: 'Published' | 'Saved';
  /** The massive variants name the user (spec: param userId). */
  userId?: string | undefined;
};

export interface ExportCallbacks {
  /** The job's progress while the file is built past the server's wait (202). */
  onProgress?: (job: Job) => void;
  /** The server answered 202: the file will be in the export history (and the PDF area for a PDF). */
  onStarted?: (started: ExportStarted) => void;
  /** True once the caller no longer wants the file (its popup closed): the download is skipped. */
  cancelled?: () => boolean;
}

/** What happened: the file was saved (its name), or the caller left before it was ready. */
export type ExportOutcome = { saved: true; fileName: string } | { saved: false; exportId: number };

const nameOf = (request: ExportTarget) => {
  const first = request.items[0];
  if (!first) return 'export';
  return 'moduleName' in first ? first.moduleName : first.clusterName;
};

/**
 * POST /data/export/{format}/{type}: the server builds the file as a persisted job and answers it
 * when ready; when it takes longer it answers 202 with the export and job ids, the job is followed and
 * the file fetched from GET /data/export/files/:id once done (unless the caller left meanwhile: the
 * file then waits in the export history). Saves the file.
 */
export async function exportItems(request: ExportRequest, callbacks: ExportCallbacks = {}): Promise<ExportOutcome> {
  const massive = isMassiveExport(request.format);
  const pdf = isPdfExport(request.format);
  const query = {
    templateId: pdf ? undefined : (request.templateId ?? undefined),
    status: request.status,
    withPhoto: isPhotoExport(request.format),
    userId: massive ? request.userId : undefined,
  };
  const answer = await api.post<Response>(`/export/${request.format}/${request.type}`, request.items, { prefix: '/data', query, responseType: 'response', alertOnError: false });
  let file = answer;
  if (answer.status === 202) {
    const started = exportStartedSchema.parse(await answer.json());
    callbacks.onStarted?.(started);
    const job = await waitForJob(started.jobId, { onProgress: callbacks.onProgress });
    if (callbacks.cancelled?.()) return { saved: false, exportId: started.exportId };
    if (job.status !== 'DONE') throw new ApiError(500, 'exportFailed', job.response || EXPORT_TEXTS.failed);
    file = await api.get<Response>(`/export/files/${started.exportId}`, { prefix: '/data', responseType: 'response', alertOnError: false });
  }
  const fileName = fileNameOf(file.headers.get('content-disposition'), `${massive ? `${request.type}s-export` : nameOf(request)}.${pdf ? 'pdf' : 'xlsx'}`);
  saveFile(await file.blob(), fileName);
  return { saved: true, fileName };
}
