import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { ErrorPage } from '@/components/ui/error-page';
import { BASE_PATH } from '@/config/app';
import { type PathKey, paths } from '@/config/paths';
import { RequireAuth } from './require-auth';
import { ComingSoonRoute } from './routes/coming-soon';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';

/** Screens that later work replaces: each shows its title and 'This screen is coming soon.' */
const comingSoon: readonly PathKey[] = [
  'history',
  'module',
  'cluster',
  'statistics',
  'manageUser',
  'manageBrand',
  'manageRelease',
  'uploadTwo',
  'upload',
  'pdfArea',
  'massiveEdit',
  'discoRemoveArea',
  'pendingArea',
  'massiveEditSelected',
  'export',
  'deletionArea',
  'approveCluster',
];

/**
 * The route table (spec part 1 §2). React Router matches whole paths only, so every route is
 * exact; /login is public; anything else redirects to /login.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    children: [
      { path: paths.login.path, element: <LoginRoute /> },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <HomeRoute /> },
          ...comingSoon.map((key) => ({
            path: paths[key].path,
            element: <ComingSoonRoute title={paths[key].title} />,
          })),
        ],
      },
      { path: '*', element: <Navigate to={paths.login.path} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: BASE_PATH });
}
