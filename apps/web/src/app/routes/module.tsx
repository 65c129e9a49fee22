import { useMemo } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ExportModal } from '@/features/exports/components/export-modal';
import { CreateModuleModal } from '@/features/home/components/create-module-modal';
import { ModuleHistoryDrawer } from '@/features/item-versions/components/module-history-drawer';
import { ModulePublishConfirmation } from '@/features/item-versions/components/publish-diff';
import { ModuleEditorPage } from '@/features/module-editor/components/module-editor-page';
import { readPageRequest } from '@/features/module-editor/logic/page-params';

/**
 * /module: the module editor for the modules the query names; without any, back to home. The page's
 * Create Module and Export popups, each card's History panel and the publish confirmation's "what changes"
 * come from their own features, composed here.
 */
export function ModuleRoute() {
  const [params] = useSearchParams();
  const request = useMemo(() => readPageRequest(params), [params]);
  if (request.kind === 'none') return <Navigate to="/" replace />;
  return (
    <ModuleEditorPage
      request={request}
      createModule={(props) => <CreateModuleModal {...props} newFamilyFlow={false} />}
      exportPopup={(props) => <ExportModal {...props} type="module" status="Saved" />}
      historyPanel={(props) => <ModuleHistoryDrawer {...props} />}
      publishConfirmation={(props) => <ModulePublishConfirmation {...props} />}
    />
  );
}
