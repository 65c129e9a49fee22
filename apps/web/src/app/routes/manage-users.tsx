import { Stack } from '@mantine/core';
import { PageContent } from '@/components/layout/page-content';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { AddUserForm } from '@/features/users/components/add-user-form';
import { UsersTable } from '@/features/users/components/users-table';
import { AdminNav } from '../admin-nav';
import { RequireAdmin } from '../require-admin';

/** Manage Users (/manageUser, admin only). */
export function ManageUsersRoute() {
  return (
    <RequireAdmin title={paths.manageUser.title}>
      <PageContent>
        <Stack gap="lg" maw={1280} mx="auto" w="100%">
          <PageHeader
            actions={<AdminNav />}
            title={paths.manageUser.title}
            description="Add back-office users from the identity provider's list, enable or disable them, and set their role and their grants per brand, stars zone and rule."
          />
          <AddUserForm />
          <UsersTable />
        </Stack>
      </PageContent>
    </RequireAdmin>
  );
}
