import { ApproveClusterPage } from '@/features/approve-cluster/components/approve-cluster-page';

/** /approve-cluster: suggested clusters to approve or reject (part 2 §2). */
export function ApproveClusterRoute() {
  return <ApproveClusterPage />;
}
