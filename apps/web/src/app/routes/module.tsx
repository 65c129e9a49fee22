import { useMemo } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ModuleEditorPage } from '@/features/module-editor/components/module-editor-page';
import { readPageRequest } from '@/features/module-editor/logic/page-params';

/** /module: the module editor for the modules the query names; without any, back to home. */
export function ModuleRoute() {
  const [params] = useSearchParams();
  const request = useMemo(() => readPageRequest(params), [params]);
  if (request.kind === 'none') return <Navigate to="/" replace />;
  return <ModuleEditorPage request={request} />;
}
