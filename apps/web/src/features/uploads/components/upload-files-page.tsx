import { Alert, Badge, Button, Group, List, Paper, Progress, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { UPLOAD_TEXTS, UPLOAD_TYPE_LABELS } from '@bo/shared/uploads';
import { IconAlertTriangle, IconCheck, IconDownload, IconHourglassHigh, IconUpload, IconX } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { flash } from '@/components/ui/flash';
import { showMessagePopup } from '@/components/ui/message-popup';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { useUploads } from '../api/get-uploads';
import { downloadReleaseFile, useDecideReleasePreview, useUploadReleaseFiles, useUploadReleases } from '../api/upload-release-files';
import {
  ALL_RELEASE_FILE_FIELDS,
  canUploadFiles,
  type ChosenFiles,
  missingForUpload,
  previewView,
  type ReleaseFileField,
  type ReleaseUploadType,
  UPLOAD_FILES_TEXTS,
  uploadFilesFailureLines,
} from '../logic/release-files';
import { importInProgress } from '../logic/upload-file';
import { ReleaseFileInput } from './release-file-input';
import { UploadPage } from './upload-page';

const TYPE_HINTS: Record<ReleaseUploadType, string> = {
  delta: 'delta: the modules and clusters of the files are inserted or updated; the others are left as they are.',
  massive: "massive: the same, and every module and cluster of the release's months that the files do not name is removed.",
};

/**
 * Upload Files (/uploadTwo, admin only; part 2 §2, §3, §5, §7, §8; formats: docs/RELEASE-FILES.md): a
 * release, a type, the four files and optionally Reference Data go to the file loader as a preview (issue
 * 33: the whole load, rolled back); the page shows what the load would do, or the refusals, and the admin
 * applies (the stored files are loaded for real, not sent again) or cancels. The load then runs in the
 * background and shows in the upload history below. 'Upload Files' waits for a release and the four files,
 * and stays disabled while an upload of the caller is WIP.
 */
export function UploadFilesPage() {
  const uploads = useUploads();
  const releases = useUploadReleases();
  const username = useSession((s) => s.user?.username);
  const send = useUploadReleaseFiles();
  const decide = useDecideReleasePreview();
  // The upload sent as a preview, followed through the upload list until it is decided.
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [releaseId, setReleaseId] = useState<string | null>(null);
  const [type, setType] = useState<ReleaseUploadType>('delta');
  const [files, setFiles] = useState<ChosenFiles>({});
  // Remounts the file inputs when the form is cleared (their refusal texts go too).
  const [formKey, setFormKey] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const inFlight = useRef(false);

  const inProgress = uploads.data ? importInProgress(uploads.data, username) : null;
  const wip = Boolean(inProgress?.wip);
  const preview = previewView(uploads.data?.list, previewId);
  const busy = (uploads.isPending && !uploads.isError) || send.isPending || decide.isPending;
  const enabled = canUploadFiles({ releaseId, files, wip, busy });
  const missing = missingForUpload({ releaseId, files });
  const release = releases.data?.find((r) => r.releaseId === releaseId) ?? null;
  const locked = wip || send.isPending || preview.state === 'computing' || preview.state === 'ready';

  const clearForm = () => {
    setReleaseId(null);
    setType('delta');
    setFiles({});
    setFormKey((k) => k + 1);
  };

  const decidePreview = async (decision: 'apply' | 'cancel') => {
    if (previewId === null) return;
    try {
      await decide.mutateAsync({ uploadId: previewId, decision });
      flash(decision === 'apply' ? UPLOAD_FILES_TEXTS.applied : UPLOAD_FILES_TEXTS.cancelled);
      setPreviewId(null);
      if (decision === 'apply') clearForm();
    } catch (error) {
      showMessagePopup('Error', uploadFilesFailureLines(error));
    }
  };

  const setFile = (field: ReleaseFileField, file: File | null) => setFiles((current) => ({ ...current, [field]: file }));

  const upload = async () => {
    if (!enabled || !releaseId || inFlight.current) return;
    inFlight.current = true;
    try {
      const accepted = await send.mutateAsync({ releaseId, type, files });
      setPreviewId(accepted.upload.id);
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
      for (const field of ALL_RELEASE_FILE_FIELDS) await downloadReleaseFile(releaseId, field);
    } catch {
      // the API client already showed the failure in the alert bar
    } finally {
      setDownloading(false);
    }
  };

  return (
    <UploadPage
      title={paths.uploadTwo.title}
      description="Load a release from its four files and, optionally, its Reference Data (.csv or .xlsx, the columns of the templates). You first see what the load would do, then apply or cancel; the load runs in the background: follow it in the table below."
      link={{ to: paths.upload.path, label: paths.upload.title, testId: 'link-import-data' }}
    >

      {wip && preview.state === 'none' && (
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
            {ALL_RELEASE_FILE_FIELDS.map((field) => (
              <ReleaseFileInput key={field} field={field} file={files[field] ?? null} disabled={locked} onChange={(file) => setFile(field, file)} />
            ))}
          </SimpleGrid>

          <Group justify="flex-end" gap="md" wrap="wrap">
            {missing.length > 0 && !wip && (
              <Text fz="sm" c="dimmed" data-testid="upload-files-missing">
                Choose {missing.join(', ')}.
              </Text>
            )}
            <DisabledReason reason={!enabled && !send.isPending && (wip ? 'An upload is in progress: wait for it to end' : missing.length > 0 ? `Choose ${missing.join(', ')} first` : 'Wait for the current step to end')}>
              <Button leftSection={<IconUpload size={16} />} onClick={() => void upload()} loading={send.isPending} data-testid="upload-files-submit">
                Upload Files
              </Button>
            </DisabledReason>
          </Group>
        </Stack>
      </Paper>

      {preview.state === 'computing' && (
        <Alert color="blue" variant="light" icon={<IconHourglassHigh size={18} />} data-testid="upload-files-previewing" aria-live="polite">
          <Stack gap="xs">
            <Text fz="sm">{UPLOAD_FILES_TEXTS.previewing}</Text>
            <Progress value={preview.progress} aria-label="Preview progress" />
          </Stack>
        </Alert>
      )}
      {preview.state === 'ready' && (
        <Paper withBorder radius="lg" p="lg" data-testid="upload-files-preview" aria-labelledby="upload-files-preview-title">
          <Stack gap="sm">
            <Title order={2} fz="lg" id="upload-files-preview-title">
              {UPLOAD_FILES_TEXTS.previewTitle}
            </Title>
            <Text fz="sm" c="dimmed">
              {UPLOAD_FILES_TEXTS.previewIntro}
            </Text>
            <List spacing={4} fz="sm" data-testid="upload-files-preview-lines">
              {preview.lines.slice(1).map((line, i) => (
                <List.Item key={`${i}-${line}`}>{line}</List.Item>
              ))}
            </List>
            <Group justify="flex-end" gap="md">
              <Button variant="default" leftSection={<IconX size={16} />} onClick={() => void decidePreview('cancel')} loading={decide.isPending} data-testid="upload-files-cancel">
                Cancel
              </Button>
              <Button leftSection={<IconCheck size={16} />} onClick={() => void decidePreview('apply')} loading={decide.isPending} data-testid="upload-files-apply">
                Apply
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {preview.state === 'refused' && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title={UPLOAD_FILES_TEXTS.refusedTitle}
          data-testid="upload-files-refused"
          withCloseButton
          closeButtonLabel="Close"
          onClose={() => setPreviewId(null)}
        >
          <List spacing={2} fz="sm">
            {preview.lines.map((line, i) => (
              <List.Item key={`${i}-${line}`}>{line}</List.Item>
            ))}
          </List>
        </Alert>
      )}

    </UploadPage>
  );
}
