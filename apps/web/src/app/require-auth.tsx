import { Button, Center, Stack, Text } from '@mantine/core';
import { Navigate } from 'react-router';
import { PageLoader } from '@/components/ui/page-loader';
import { paths } from '@/config/paths';
import { useLoadGrants } from '@/features/auth/api/get-grants';
import { useSession } from '@/lib/session';

/**
 * The route guard (spec part 1 §2): a route is reachable only for a user with a non-empty roles
 * list whose permission load did not answer 401; everyone else goes to /login. The grants are
 * loaded on first entry when missing. A 401 anywhere ends the session (API client), and this
 * guard then redirects, so logout, expiry and rejected tokens all land on /login the same way.
 */
export function RequireAuth({ children }: { children: React.ReactNode }) {
  const status = useSession((s) => s.status);
  const user = useSession((s) => s.user);
  const grants = useSession((s) => s.grants);
  const authorized = status === 'authenticated' && !!user && user.roles.length > 0;
  const grantsLoad = useLoadGrants(authorized && grants === null);

  if (status === 'restoring') return <PageLoader label="Restoring your session" />;
  if (!authorized) return <Navigate to={paths.login.path} replace />;
  if (grants === null) {
    if (grantsLoad.isError) {
      return (
        <Center h="100dvh">
          <Stack align="center" gap="sm">
            <Text fw={600}>Your permissions could not be loaded.</Text>
            <Text c="dimmed" fz="sm">
              {grantsLoad.error.message}
            </Text>
            <Button variant="light" onClick={() => void grantsLoad.refetch()} loading={grantsLoad.isFetching}>
              Try again
            </Button>
          </Stack>
        </Center>
      );
    }
    return <PageLoader label="Loading your permissions" />;
  }
  return children;
}
