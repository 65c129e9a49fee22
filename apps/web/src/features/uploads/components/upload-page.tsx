import { Button, Stack } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/ui/page-header';
import { UploadHistoryPanel } from './upload-history-table';

/**
 * The frame of both upload pages (Import Data, Upload Files): the header, with a link to the other page when the
 * caller may use it, the page's own content, and the upload history below.
 */
export function UploadPage({ title, description, link, children }: { title: string; description: string; link: { to: string; label: string; testId: string } | false; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={1280} mx="auto" w="100%">
      <PageHeader
        title={title}
        description={description}
        actions={
          link && (
            <Button component={Link} to={link.to} variant="subtle" color="gray" rightSection={<IconArrowRight size={16} />} data-testid={link.testId}>
              {link.label}
            </Button>
          )
        }
      />
      {children}
      <UploadHistoryPanel />
    </Stack>
  );
}
