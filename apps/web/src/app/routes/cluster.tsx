import { ClusterEditorPage } from '@/features/cluster-editor/components/cluster-editor-page';
import { ClusterHistoryDrawer } from '@/features/item-versions/components/cluster-history-drawer';
import { ClusterPublishDiff } from '@/features/item-versions/components/publish-diff';

/** /cluster: the cluster composition editor (part 2 §4), with the item-versions feature's History panel and publish diff composed in. */
export function ClusterRoute() {
  return <ClusterEditorPage historyPanel={(props) => <ClusterHistoryDrawer {...props} />} publishDiff={(props) => <ClusterPublishDiff {...props} />} />;
}
