import { ClusterEditorPage } from '@/features/cluster-editor/components/cluster-editor-page';

/** /cluster: the cluster composition editor (part 2 §2). */
export function ClusterRoute() {
  return <ClusterEditorPage />;
}
