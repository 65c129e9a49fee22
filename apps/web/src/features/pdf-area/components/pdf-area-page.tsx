import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { isAdmin } from '@bo/shared/permissions';
import { Link } from 'react-router';
import { ExportTable } from '@/components/ui/export-table';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { usePdfExports } from '../api/get-pdf-exports';

/** Shown when there is no PDF export yet: where they come from. */
const NO_PDF_EXPORTS = 'There are no PDF exports yet. Modules and clusters exported as PDF appear here.';

/**
 * PDF FILES AREA (/pdf-area; part 2 §2): the PDF exports, newest first, read again every 5 seconds, each
 * with its progress, DOWNLOAD once built, and the error text of a failed one.
 */
export function PdfAreaPage() {
  const pdfs = usePdfExports();
  const admin = useSession((s) => isAdmin(s.grants ?? []));
  return (
    <Stack gap="lg">
      <PageHeader
        title={paths.pdfArea.title}
        description={`${admin ? 'Everybody’s PDF exports' : 'Your PDF exports'}: a long export keeps being built here after you leave the page, and its file is downloaded from here when done.`}
      />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="sm">
          <Group justify="space-between" align="baseline" wrap="wrap">
            <Text fz="xs" c="dimmed">
              Newest first · refreshed every 5 seconds
            </Text>
            <Anchor component={Link} to={paths.export.path} fz="sm">
              Export Data
            </Anchor>
          </Group>
          <ExportTable
            label="PDF exports"
            typeHeader="Type"
            exports={pdfs.data}
            loading={pdfs.isPending}
            error={pdfs.error}
            emptyMessage={NO_PDF_EXPORTS}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
