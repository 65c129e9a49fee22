import { useQuery } from '@tanstack/react-query';
import type {
  ClassificationMassiveEditRowInput,
  ClusterMassiveEditRowInput,
  MassiveEditAnswer,
  MassiveEditResult,
  MassiveEditType,
  ModuleMassiveEditRowInput,
} from '@bo/shared/massive-edit';
import type { RequestRow } from '../logic/draft-rows';
import { previewClassificationMassiveEdit, startClassificationMassiveEdit } from './classification-massive-edit';
import { previewClusterMassiveEdit, startClusterMassiveEdit } from './cluster-massive-edit';
import { previewModuleMassiveEdit, startModuleMassiveEdit } from './module-massive-edit';
import { previewSelectedModuleMassiveEdit, startSelectedModuleMassiveEdit } from './module-massive-edit-selected';

/** The two calls of one table: its preview (dryRun) and its start (a job, or the refusal of every item). */
export interface MassiveEditCalls {
  preview: (rows: RequestRow[], toPublish: boolean) => Promise<MassiveEditResult>;
  start: (rows: RequestRow[], toPublish: boolean) => Promise<MassiveEditAnswer>;
}

/** Which endpoint a table sends to: the page's three types, or the selected modules (admins). */
export type MassiveEditTarget = MassiveEditType | 'selected';

export function callsFor(target: MassiveEditTarget): MassiveEditCalls {
  switch (target) {
    case 'module':
      return {
        preview: (rows, toPublish) => previewModuleMassiveEdit(rows as ModuleMassiveEditRowInput[], toPublish),
        start: (rows, toPublish) => startModuleMassiveEdit(rows as ModuleMassiveEditRowInput[], toPublish),
      };
    case 'selected':
      return {
        preview: (rows, toPublish) => previewSelectedModuleMassiveEdit(rows as ModuleMassiveEditRowInput[], toPublish),
        start: (rows, toPublish) => startSelectedModuleMassiveEdit(rows as ModuleMassiveEditRowInput[], toPublish),
      };
    case 'cluster':
      return {
        preview: (rows, toPublish) => previewClusterMassiveEdit(rows as ClusterMassiveEditRowInput[], toPublish),
        start: (rows, toPublish) => startClusterMassiveEdit(rows as ClusterMassiveEditRowInput[], toPublish),
      };
    case 'classification':
      return {
        preview: (rows) => previewClassificationMassiveEdit(rows as ClassificationMassiveEditRowInput[]),
        start: (rows) => startClassificationMassiveEdit(rows as ClassificationMassiveEditRowInput[]),
      };
  }
}

/** The preview with toPublish of the rows about to be published (what the items will hold): read each time, no retry. */
export const usePublishPreview = (target: MassiveEditTarget, rows: RequestRow[]) =>
  useQuery({
    queryKey: ['massive-edit', 'publish-preview', target, rows],
    queryFn: () => callsFor(target).preview(rows, true),
    retry: false,
    gcTime: 0,
    staleTime: 0,
  });
