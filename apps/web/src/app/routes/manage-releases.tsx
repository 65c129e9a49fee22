import { Stack } from '@mantine/core';
import { PageContent } from '@/components/layout/page-content';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { ReleasesTable } from '@/features/releases/components/releases-table';
import { AdminNav } from '../admin-nav';
import { RequireAdmin } from '../require-admin';

/** Manage Releases (/manageRelease, admin only). */
export function ManageReleasesRoute() {
  return (
    <RequireAdmin title={paths.manageRelease.title}>
      <PageContent>
        <Stack gap="lg" maw={1280} mx="auto" w="100%">
          <PageHeader
            actions={<AdminNav />}
            title={paths.manageRelease.title}
            description="A release owns its planning months: closing it closes them (their items become read-only for everyone), re-opening opens them again. One release is open at a time. Publishing to the front office and to viewers is separate."
          />
          <ReleasesTable />
        </Stack>
      </PageContent>
    </RequireAdmin>
  );
}
