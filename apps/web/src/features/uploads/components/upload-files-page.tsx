import { Alert, Badge, Button, Group, Paper, Radio, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { UPLOAD_TEXTS, UPLOAD_TYPE_LABELS } from '@bo/shared/uploads';
import { IconAlertTriangle, IconArrowRight, IconDownload, IconHourglassHigh, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useUploads } from '../api/get-uploads';
import { downloadReleaseFile, useUploadReleaseFiles, useUploadReleases } from '../api/upload-release-files';
import {
  canUploadFiles,
  type ChosenFiles,
  missingForUpload,
  RELEASE_FILE_FIELDS,
  type ReleaseFileField,
  type ReleaseUploadType,
  UPLOAD_FILES_TEXTS,
  uploadFilesFailureLines,
} from '../logic/release-files';
import { importInProgress } from '../logic/upload-file';
import { ReleaseFileInput } from './release-file-input';
import { UploadHistoryPanel } from './upload-history-table';

const TYPE_HINTS: Record<ReleaseUploadType, string> = {
  delta: 'delta: the modules and clusters of the files are inserted or updated; the others are left as they are.',
  massive: "massive: the same, and every module and cluster of the release's months that the files do not name is removed.",
};

/**
 * Upload Files (/uploadTwo, admin only; part 2 §2, §3, §5, §7, §8; formats: docs/RELEASE-FILES.md): a
 * release, a type and the four files go to the file loader; the upload then runs in the background and
 * shows in the upload history below. 'Upload Files' waits for a release and all four files, and stays
 * disabled while an upload of the caller is WIP.
 */
export function UploadFilesPage() {
  const uploads = useUploads();
  const releases = useUploadReleases();
  const username = useSession((s) => s.user?.username);
  const send = useUploadReleaseFiles();
  const [releaseId, setReleaseId] = useState<string | null>(null);
  const [type, setType] = useState<ReleaseUploadType>('delta');
  const [files, setFiles] = useState<ChosenFiles>({});
  // Remounts the file inputs when the form is cleared (their refusal texts go too).
  const [formKey, setFormKey] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const inFlight = useRef(false);

  const inProgress = uploads.data ? importInProgress(uploads.data, username) : null;
  const wip = Boolean(inProgress?.wip);
  const busy = (uploads.isPending && !uploads.isError) || send.isPending;
  const enabled = canUploadFiles({ releaseId, files, wip, busy });
  const missing = missingForUpload({ releaseId, files });
  const release = releases.data?.find((r) => r.releaseId === releaseId) ?? null;
  const locked = wip || send.isPending;

  const setFile = (field: ReleaseFileField, file: File | null) => setFiles((current) => ({ ...current, [field]: file }));

  const upload = async () => {
    if (!enabled || !releaseId || inFlight.current) return;
    const chosen = Object.fromEntries(RELEASE_FILE_FIELDS.map((f) => [f, files[f]])) as Record<ReleaseFileField, File>;
    inFlight.current = true;
    try {
      await send.mutateAsync({ releaseId, type, files: chosen });
      flash(UPLOAD_FILES_TEXTS.success);
      setReleaseId(null);
      setType('delta');
      setFiles({});
      setFormKey((k) => k + 1);
    } catch (error) {
      showMessagePopup('Error', uploadFilesFailureLines(error));
    } finally {
      inFlight.current = false;
    }
  };

  const downloadRelease = async () => {
    if (!releaseId) return;
    setDownloading(true);
    try {
      for (const field of RELEASE_FILE_FIELDS) await downloadReleaseFile(releaseId, field);
    } catch {
      // the API client already showed the failure in the alert bar
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="lg" maw={1280} mx="auto" w="100%">
      <PageHeader
        title={paths.uploadTwo.title}
        description="Load a release from its four files (.csv or .xlsx, the columns of the templates). The upload runs in the background: follow it in the table below."
        actions={
          <Button component={Link} to={paths.upload.path} variant="subtle" color="gray" rightSection={<IconArrowRight size={16} />} data-testid="link-import-data">
            {paths.upload.title}
          </Button>
        }
      />

      {wip && (
        <Alert color="yellow" variant="light" icon={<IconHourglassHigh size={18} />} data-testid="upload-wip-notice">
          <Group gap="xs" wrap="wrap">
            <Text fz="sm">{UPLOAD_TEXTS.wipExists}</Text>
            {inProgress?.upload && (
              <Badge variant="outline" color="yellow" tt="none">
                {UPLOAD_TYPE_LABELS[inProgress.upload.type]} · <bdi>{inProgress.upload.fileName}</bdi> · {Math.round(inProgress.upload.progress)}%
              </Badge>
            )}
          </Group>
        </Alert>
      )}

      <Paper withBorder radius="lg" p="lg" data-testid="upload-files-form">
        <Stack gap="lg">
          <Group align="flex-end" gap="lg" wrap="wrap">
            <Select
              label="Release"
              placeholder={releases.isPending ? 'Loading releases…' : 'Choose a release'}
              data={(releases.data ?? []).map((r) => ({ value: r.releaseId, label: r.status === 'OPEN' ? r.releaseId : `${r.releaseId} (closed)` }))}
              value={releaseId}
              onChange={setReleaseId}
              disabled={locked}
              searchable
              nothingFoundMessage="No release"
              w={240}
              data-testid="release-select"
              error={releases.isError ? 'The releases could not be read' : undefined}
            />
            <Radio.Group label="Type" value={type} onChange={(v) => setType(v as ReleaseUploadType)}>
              <Group gap="md" h={36} align="center">
                <Radio value="delta" label="delta" disabled={locked} data-testid="type-delta" />
                <Radio value="massive" label="massive" disabled={locked} data-testid="type-massive" />
              </Group>
            </Radio.Group>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => void downloadRelease()}
              disabled={!releaseId}
              loading={downloading}
              ml="auto"
              data-testid="download-release"
            >
              Download release
            </Button>
          </Group>
          <Text fz="xs" c="dimmed" mt={-8}>
            {TYPE_HINTS[type]}
          </Text>
          {release?.status === 'CLOSED' && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} py={8} data-testid="release-closed-notice">
              <Text fz="sm">Release {release.releaseId} is closed: it can be downloaded, but the server loads files only into an open release.</Text>
            </Alert>
          )}

          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" key={formKey}>
            {RELEASE_FILE_FIELDS.map((field) => (
              <ReleaseFileInput key={field} field={field} file={files[field] ?? null} disabled={locked} onChange={(file) => setFile(field, file)} />
            ))}
          </SimpleGrid>

          <Group justify="flex-end" gap="md" wrap="wrap">
            {missing.length > 0 && !wip && (
              <Text fz="sm" c="dimmed" data-testid="upload-files-missing">
                Choose {missing.join(', ')}.
              </Text>
            )}
            <Button leftSection={<IconUpload size={16} />} onClick={() => void upload()} disabled={!enabled} loading={send.isPending} data-testid="upload-files-submit">
              Upload Files
            </Button>
          </Group>
        </Stack>
      </Paper>

      <UploadHistoryPanel />
    </Stack>
  );
}
