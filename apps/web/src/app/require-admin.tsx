import { isAdmin } from '@bo/shared/permissions';
import { PageContent } from '@/components/layout/page-content';
import { NoAccessPage } from '@/components/ui/no-access-page';
import { useSession } from '@/lib/session';

/**
 * Administration screens (Manage Users, Brands, Releases): only for admins. Others see why instead
 * of a screen whose every call the server would refuse with 403. Sits inside RequireAuth, so the
 * grants are loaded.
 */
export function RequireAdmin({ title, children }: { title: string; children: React.ReactNode }) {
  const admin = useSession((s) => isAdmin(s.grants ?? []));
  if (admin) return children;
  return (
    <PageContent>
      <NoAccessPage title={title} message="Only administrators can open this page." testId="admin-only" />
    </PageContent>
  );
}
