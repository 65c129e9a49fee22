import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '@/components/layout/app-layout';
import { ErrorPage } from '@/components/ui/error-page';
import { BASE_PATH } from '@/config/app';
import { paths } from '@/config/paths';
import { RequireAuth } from './require-auth';
import { HomeRoute } from './routes/home';
import { LoginRoute } from './routes/login';
import { ManageBrandsRoute } from './routes/manage-brands';
import { ManageReleasesRoute } from './routes/manage-releases';
import { ManageUsersRoute } from './routes/manage-users';
import { ModuleRoute } from './routes/module';
import { ApproveClusterRoute } from './routes/approve-cluster';
import { ClusterRoute } from './routes/cluster';
import { MassiveEditRoute } from './routes/massive-edit';
import { MassiveEditSelectedRoute } from './routes/massive-edit-selected';
import { UploadRoute } from './routes/upload';
import { UploadTwoRoute } from './routes/upload-two';
import { ExportRoute } from './routes/export';
import { PdfAreaRoute } from './routes/pdf-area';
import { HistoryRoute } from './routes/history';
import { DeletionAreaRoute } from './routes/deletion-area';
import { PendingAreaRoute } from './routes/pending-area';
import { DiscoRemoveAreaRoute } from './routes/disco-remove-area';
import { StatisticsRoute } from './routes/statistics';

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
          { path: paths.manageUser.path, element: <ManageUsersRoute /> },
          { path: paths.manageBrand.path, element: <ManageBrandsRoute /> },
          { path: paths.manageRelease.path, element: <ManageReleasesRoute /> },
          { path: paths.module.path, element: <ModuleRoute /> },
          { path: paths.cluster.path, element: <ClusterRoute /> },
          { path: paths.approveCluster.path, element: <ApproveClusterRoute /> },
          { path: paths.massiveEdit.path, element: <MassiveEditRoute /> },
          { path: paths.massiveEditSelected.path, element: <MassiveEditSelectedRoute /> },
          { path: paths.upload.path, element: <UploadRoute /> },
          { path: paths.uploadTwo.path, element: <UploadTwoRoute /> },
          { path: paths.export.path, element: <ExportRoute /> },
          { path: paths.pdfArea.path, element: <PdfAreaRoute /> },
          { path: paths.history.path, element: <HistoryRoute /> },
          { path: paths.deletionArea.path, element: <DeletionAreaRoute /> },
          { path: paths.pendingArea.path, element: <PendingAreaRoute /> },
          { path: paths.discoRemoveArea.path, element: <DiscoRemoveAreaRoute /> },
          { path: paths.statistics.path, element: <StatisticsRoute /> },
        ],
      },
      { path: '*', element: <Navigate to={paths.login.path} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: BASE_PATH });
}
