import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Navigate } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { PageLoader } from '@/components/ui/page-loader';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { type LogoutReason, useSession } from '@/lib/session';

const endedSession: Partial<Record<LogoutReason, string>> = {
  expired: 'Your session has expired. Please log in again.',
  unauthorized: 'Your session has ended. Please log in again.',
};

export function LoginRoute() {
  const status = useSession((s) => s.status);
  const hasRoles = useSession((s) => (s.user?.roles.length ?? 0) > 0);
  const logoutReason = useSession((s) => s.logoutReason);

  if (status === 'restoring') return <PageLoader label="Restoring your session" />;
  // Signed in (just now, or still): the spec sends the user to home.
  if (status === 'authenticated' && hasRoles) return <Navigate to={paths.home.path} replace />;

  const notice = logoutReason ? endedSession[logoutReason] : undefined;
  return (
    <AuthLayout title="Sign in" subtitle="Plan and publish the monthly assortments.">
      {notice && (
        <Alert variant="light" color="brand" radius="md" mb="md" icon={<IconInfoCircle size={18} />} data-testid="session-notice">
          {notice}
        </Alert>
      )}
      <LoginForm />
    </AuthLayout>
  );
}
