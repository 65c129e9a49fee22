import { Anchor, Box, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { downloadTemplate } from '../api/upload-release-files';
import { isOptionalReleaseFile, isReleaseFileName, RELEASE_FILE_ACCEPT, RELEASE_FILE_LABELS, type ReleaseFileField, type TemplateFormat, UPLOAD_FILES_TEXTS } from '../logic/release-files';
import { ChooseFileButton, ChosenFile } from './file-choice';

export interface ReleaseFileInputProps {
  field: ReleaseFileField;
  file: File | null;
  disabled: boolean;
  onChange: (file: File | null) => void;
}

/**
 * One of the files of Upload Files (the four, and the optional Reference Data): its label, the chosen file (name, size, remove) or a picker
 * (.csv or .xlsx), and the template downloads (CSV and xlsx, header only).
 */
export function ReleaseFileInput({ field, file, disabled, onChange }: ReleaseFileInputProps) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<TemplateFormat | null>(null);
  const resetPicker = useRef<() => void>(null);
  const testId = `release-file-${field}`;

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    if (isReleaseFileName(chosen)) {
      setRefusal(null);
      onChange(chosen);
    } else {
      setRefusal(UPLOAD_FILES_TEXTS.csvOrXlsx);
      onChange(null);
    }
    resetPicker.current?.();
  };

  const template = async (format: TemplateFormat) => {
    setDownloading(format);
    try {
      await downloadTemplate(field, format);
    } catch {
      // the API client already showed the failure in the alert bar
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={32} radius="md" variant="light" color="teal">
              <IconFileSpreadsheet size={18} stroke={1.6} />
            </ThemeIcon>
            <Stack gap={0}>
              <Text fw={650} fz="sm">
                {RELEASE_FILE_LABELS[field]}
              </Text>
              <Text fz="xs" c="dimmed">
                Field {field} · .csv or .xlsx{isOptionalReleaseFile(field) ? ' · optional' : ''}
              </Text>
            </Stack>
          </Group>
          <Group gap={6} wrap="nowrap" align="center">
            <IconDownload size={14} color="var(--mantine-color-dimmed)" />
            <Text fz="xs" c="dimmed">
              Template
            </Text>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Anchor
                key={format}
                component="button"
                type="button"
                fz="xs"
                fw={600}
                onClick={() => void template(format)}
                disabled={downloading !== null}
                // The name starts with the link's visible text (WCAG 2.5.3, axe label-content-name-mismatch).
                aria-label={`${format === 'csv' ? 'CSV' : 'xlsx'} template of the ${RELEASE_FILE_LABELS[field]}: download`}
                data-testid={`${testId}-template-${format}`}
                style={downloading === format ? { opacity: 0.5 } : undefined}
              >
                {format === 'csv' ? 'CSV' : 'xlsx'}
              </Anchor>
            ))}
          </Group>
        </Group>

        <Box
          px="sm"
          py={8}
          style={{
            border: `1.5px dashed ${refusal ? 'var(--mantine-color-red-5)' : 'var(--mantine-color-gray-4)'}`,
            borderRadius: 'var(--mantine-radius-md)',
            background: 'var(--mantine-color-gray-0)',
            minHeight: 52,
            display: 'flex',
            alignItems: 'center',
          }}
        >
          {file ? (
            <ChosenFile file={file} onRemove={() => onChange(null)} disabled={disabled} nameTestId={`${testId}-name`} fullWidth />
          ) : (
            <Group justify="space-between" gap="xs" wrap="nowrap" w="100%">
              <Text fz="sm" c="dimmed">
                No file chosen
              </Text>
              <ChooseFileButton onChoose={choose} accept={RELEASE_FILE_ACCEPT} resetRef={resetPicker} disabled={disabled} testId={`${testId}-choose`} inputTestId={`${testId}-input`} />
            </Group>
          )}
        </Box>
        {refusal && (
          <Text fz="xs" c="red" role="alert" data-testid={`${testId}-refusal`}>
            {refusal}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
