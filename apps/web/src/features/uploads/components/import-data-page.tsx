import { Alert, Badge, Group, SimpleGrid, Text } from '@mantine/core';
import { canImportAny, isAdmin } from '@bo/shared/permissions';
import { UPLOAD_TEXTS, UPLOAD_TYPE_LABELS } from '@bo/shared/uploads';
import { IconHourglassHigh } from '@tabler/icons-react';
import { useState } from 'react';
import { showMessagePopup } from '@/components/ui/message-popup';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useUploads } from '../api/get-uploads';
import { type ImportKind, useUploadExcel } from '../api/upload-excel';
import { importInProgress, uploadFailureLines } from '../logic/upload-file';
import { ImportPreviewPanel } from './import-preview-panel';
import { UploadArea } from './upload-area';
import { UploadPage } from './upload-page';

const AREAS: readonly { kind: ImportKind; title: string; description: string; testId: string }[] = [
  {
    kind: 'module',
    title: UPLOAD_TEXTS.importModule,
    description: 'Create or update modules from a workbook: one row per SKU, the columns of Export Module XLS.',
    testId: 'import-module',
  },
  {
    kind: 'cluster',
    title: UPLOAD_TEXTS.importCluster,
    description: 'Create or update clusters from a workbook: the columns of a cluster export (one row per cluster, or one per module of a cluster).',
    testId: 'import-cluster',
  },
];

/**
 * Import Data (/upload; part 2 §2, §4 "Upload", §5, §8): the two import areas and the upload history.
 * A chosen workbook is first previewed (docs/IMPORT-PREVIEW.md): the preview panel lists what the import
 * would do and Apply or Cancel decides; a preview waiting (also after a reload) is shown the same way.
 * The areas are disabled while the caller has an import in progress or a preview waiting (the server
 * refuses a second one with 409 anyway); the state and the list are read every 5 seconds.
 */
export function ImportDataPage() {
  const allowed = useSession((s) => canImportAny(s.grants ?? []));
  if (!allowed) return <NoImportRight />;
  return <ImportData />;
}

function ImportData() {
  const uploads = useUploads();
  const username = useSession((s) => s.user?.username);
  const admin = useSession((s) => isAdmin(s.grants ?? []));
  const send = useUploadExcel();
  const inProgress = uploads.data ? importInProgress(uploads.data, username) : null;
  const wip = inProgress?.upload ?? null;
  // Until the state is known an upload would likely be refused; a state that cannot be read leaves the
  // areas usable (the server still says no to a second import).
  const blocked = (uploads.isPending && !uploads.isError) || Boolean(inProgress?.wip);
  const sendingKind = send.isPending ? send.variables.kind : null;
  // The preview on screen: the one just sent, else the caller's preview waiting for a decision.
  const [sentId, setSentId] = useState<number | null>(null);
  const [closedId, setClosedId] = useState<number | null>(null);
  const waitingId = wip?.status === 'PREVIEW' && wip.userId === username ? wip.id : null;
  const previewId = sentId ?? (waitingId !== closedId ? waitingId : null);

  const upload = async (kind: ImportKind, file: File): Promise<boolean> => {
    try {
      const accepted = await send.mutateAsync({ kind, file });
      setSentId(accepted.upload.id);
      return true;
    } catch (error) {
      showMessagePopup('Error', uploadFailureLines(error));
      return false;
    }
  };

  return (
    <UploadPage
      title={paths.upload.title}
      description="Import modules or clusters from an Excel workbook (.xlsx). You first see what the import would do, item by item, then apply or cancel it. Each import runs in the background: follow it in the table below and open its response when it ends."
      link={admin && { to: paths.uploadTwo.path, label: paths.uploadTwo.title, testId: 'link-upload-files' }}
    >

      {previewId !== null && (
        <ImportPreviewPanel
          key={previewId}
          uploadId={previewId}
          onDone={() => {
            setClosedId(previewId);
            setSentId(null);
          }}
        />
      )}

      {inProgress?.wip && previewId === null && wip?.status !== 'PREVIEW' && (
        <Alert color="yellow" variant="light" icon={<IconHourglassHigh size={18} />} data-testid="upload-wip-notice">
          <Group gap="xs" wrap="wrap">
            <Text fz="sm">{UPLOAD_TEXTS.wipExists}</Text>
            {wip && (
              <Badge variant="outline" color="yellow" tt="none">
                {UPLOAD_TYPE_LABELS[wip.type]} · <bdi>{wip.fileName}</bdi> · {Math.round(wip.progress)}%
              </Badge>
            )}
          </Group>
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {AREAS.map((area) => (
          <UploadArea
            key={area.kind}
            title={area.title}
            description={area.description}
            testId={area.testId}
            disabled={blocked || (sendingKind !== null && sendingKind !== area.kind)}
            sending={sendingKind === area.kind}
            onUpload={(file) => upload(area.kind, file)}
          />
        ))}
      </SimpleGrid>

    </UploadPage>
  );
}

/** Users without the import right (part 1 §6) see why instead of areas the server would refuse. */
function NoImportRight() {
  return (
    <NoAccessPage
      title={paths.upload.title}
      message={UPLOAD_TEXTS.noImportRight}
      details="Importing needs the administrator role, or an edit grant with the import rule. Ask an administrator if you need it."
      testId="no-import-right"
    />
  );
}
