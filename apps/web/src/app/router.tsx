import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ErrorPage } from '@/components/ui/error-page';
import { BASE_PATH } from '@/config/app';
import { paths } from '@/config/paths';
import { LoginRoute } from './routes/login';

/**
 * A screen loaded when its route is first visited (docs/web-app.md "Code splitting"): each route's
 * code, and the libraries only it uses (drag and drop, virtual lists), come in their own chunk.
 */
const screen = (load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy'> => ({ lazy: async () => ({ Component: await load() }) });

/**
 * The route table (spec part 1 §2). React Router matches whole paths only, so every route is
 * exact; /login is public (and part of the first load: it is the first screen of a signed-out
 * visit); anything else redirects to /login.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    children: [
      { path: paths.login.path, element: <LoginRoute /> },
      {
        // The signed-in frame (grants check, header, menus) loads with the first signed-in screen, not with /login.
        lazy: async () => {
          const [{ RequireAuth }, { AppLayout }] = await Promise.all([import('./require-auth'), import('@/components/layout/app-layout')]);
          return {
            Component: () => (
              <RequireAuth>
                <AppLayout />
              </RequireAuth>
            ),
          };
        },
        children: [
          { index: true, ...screen(async () => (await import('./routes/home')).HomeRoute) },
          { path: paths.manageUser.path, ...screen(async () => (await import('./routes/manage-users')).ManageUsersRoute) },
          { path: paths.manageBrand.path, ...screen(async () => (await import('./routes/manage-brands')).ManageBrandsRoute) },
          { path: paths.manageRelease.path, ...screen(async () => (await import('./routes/manage-releases')).ManageReleasesRoute) },
          { path: paths.module.path, ...screen(async () => (await import('./routes/module')).ModuleRoute) },
          { path: paths.cluster.path, ...screen(async () => (await import('./routes/cluster')).ClusterRoute) },
          { path: paths.approveCluster.path, ...screen(async () => (await import('./routes/approve-cluster')).ApproveClusterRoute) },
          { path: paths.massiveEdit.path, ...screen(async () => (await import('./routes/massive-edit')).MassiveEditRoute) },
          { path: paths.massiveEditSelected.path, ...screen(async () => (await import('./routes/massive-edit-selected')).MassiveEditSelectedRoute) },
          { path: paths.upload.path, ...screen(async () => (await import('./routes/upload')).UploadRoute) },
          { path: paths.uploadTwo.path, ...screen(async () => (await import('./routes/upload-two')).UploadTwoRoute) },
          { path: paths.export.path, ...screen(async () => (await import('./routes/export')).ExportRoute) },
          { path: paths.pdfArea.path, ...screen(async () => (await import('./routes/pdf-area')).PdfAreaRoute) },
          { path: paths.history.path, ...screen(async () => (await import('./routes/history')).HistoryRoute) },
          { path: paths.deletionArea.path, ...screen(async () => (await import('./routes/deletion-area')).DeletionAreaRoute) },
          { path: paths.pendingArea.path, ...screen(async () => (await import('./routes/pending-area')).PendingAreaRoute) },
          { path: paths.discoRemoveArea.path, ...screen(async () => (await import('./routes/disco-remove-area')).DiscoRemoveAreaRoute) },
          { path: paths.statistics.path, ...screen(async () => (await import('./routes/statistics')).StatisticsRoute) },
        ],
      },
      { path: '*', element: <Navigate to={paths.login.path} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: BASE_PATH });
}
