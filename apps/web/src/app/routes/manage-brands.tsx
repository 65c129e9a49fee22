import { Stack } from '@mantine/core';
import { PageContent } from '@/components/layout/page-content';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { BrandsList } from '@/features/brands/components/brands-list';
import { AdminNav } from '../admin-nav';
import { RequireAdmin } from '../require-admin';

/** Manage Brands (/manageBrand, admin only). */
export function ManageBrandsRoute() {
  return (
    <RequireAdmin title={paths.manageBrand.title}>
      <PageContent>
        <Stack gap="lg" maw={1280} mx="auto" w="100%">
          <PageHeader
            actions={<AdminNav />}
            title={paths.manageBrand.title}
            description="Give many users view, edit or submit on a brand at once. These are the same grants as in Manage Users, seen from the brand's side."
          />
          <BrandsList />
        </Stack>
      </PageContent>
    </RequireAdmin>
  );
}
