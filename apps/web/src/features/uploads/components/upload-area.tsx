import { Box, Button, Group, LoadingOverlay, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { DisabledReason } from '@/components/ui/disabled-reason';
import { UPLOAD_TEXTS } from '@bo/shared/uploads';
import { IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { isXlsxFile, XLSX_ACCEPT } from '../logic/upload-file';
import { ChooseFileButton, ChosenFile } from './file-choice';

export interface UploadAreaProps {
  title: string;
  description: string;
  /** data-testid prefix: 'import-module', 'import-cluster'. */
  testId: string;
  /** Another import runs or is being sent: nothing can be chosen or sent. */
  disabled: boolean;
  /** This area's file is being sent. */
  sending: boolean;
  /** Sends the file; resolves true when the server accepted it (the area is then cleared). */
  onUpload: (file: File) => Promise<boolean>;
}

/**
 * One import area (part 2 §2 "Import Data"): one .xlsx chosen with the picker or dropped on the area,
 * its name and size, and Upload. Anything but an .xlsx is refused here, without calling the server.
 */
export function UploadArea({ title, description, testId, disabled, sending, onUpload }: UploadAreaProps) {
  const [file, setFile] = useState<File | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const resetPicker = useRef<() => void>(null);
  // A second click landing before the button re-renders as loading must not send the file twice.
  const inFlight = useRef(false);
  const locked = disabled || sending;

  const choose = (chosen: File | null) => {
    if (!chosen) return;
    if (!isXlsxFile(chosen)) {
      setFile(null);
      setRefusal(UPLOAD_TEXTS.excelOnly);
    } else {
      setFile(chosen);
      setRefusal(null);
    }
    resetPicker.current?.();
  };

  const clear = () => {
    setFile(null);
    setRefusal(null);
    resetPicker.current?.();
  };

  const upload = async () => {
    if (!file || locked || inFlight.current) return;
    inFlight.current = true;
    try {
      if (await onUpload(file)) clear();
    } finally {
      inFlight.current = false;
    }
  };

  const onDrop = (event: React.DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (locked) return;
    const files = [...event.dataTransfer.files];
    if (files.length > 1) {
      setFile(null);
      setRefusal('Drop one file at a time.');
      return;
    }
    choose(files[0] ?? null);
  };

  const borderColor = refusal ? 'var(--mantine-color-red-5)' : over ? 'var(--mantine-color-brand-5)' : 'var(--mantine-color-gray-4)';

  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      pos="relative"
      data-testid={testId}
      data-disabled={locked || undefined}
      aria-disabled={locked}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = locked ? 'none' : 'copy';
        if (!locked) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      style={{ opacity: disabled && !sending ? 0.6 : 1, display: 'flex', flexDirection: 'column' }}
    >
      <LoadingOverlay visible={sending} zIndex={2} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm' }} />
      <Stack gap="md" style={{ flex: 1 }}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="md" variant="light" color="teal">
            <IconFileSpreadsheet size={22} stroke={1.6} />
          </ThemeIcon>
          <Stack gap={2}>
            <Text fw={650} fz="lg">
              {title}
            </Text>
            <Text fz="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Group>

        <Box
          p="md"
          style={{
            border: `1.5px dashed ${borderColor}`,
            borderRadius: 'var(--mantine-radius-md)',
            background: over ? 'var(--mantine-color-brand-0)' : 'var(--mantine-color-gray-0)',
            minHeight: 76,
          }}
        >
          {file ? (
            <ChosenFile file={file} onRemove={clear} disabled={locked} nameTestId={`${testId}-file-name`} sizeTestId={`${testId}-file-size`} />
          ) : (
            <Group justify="center" gap="xs" wrap="wrap" mih={44}>
              <Text fz="sm" c="dimmed">
                Drop an Excel file (.xlsx) here or
              </Text>
              <ChooseFileButton onChoose={choose} accept={XLSX_ACCEPT} resetRef={resetPicker} disabled={locked} testId={`${testId}-choose`} />
            </Group>
          )}
        </Box>

        {refusal && (
          <Text fz="sm" c="red" role="alert" data-testid={`${testId}-refusal`}>
            {refusal}
          </Text>
        )}

        <Group justify="flex-end" mt="auto">
          <DisabledReason reason={!sending && (disabled ? 'Another import is running: wait for it to end' : !file && 'Choose a file first')}>
            <Button leftSection={<IconUpload size={16} />} onClick={upload} loading={sending} data-testid={`${testId}-upload`}>
              Upload
            </Button>
          </DisabledReason>
        </Group>
      </Stack>
    </Paper>
  );
}
