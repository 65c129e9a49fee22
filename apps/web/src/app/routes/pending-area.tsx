import { PendingAreaPage } from '@/features/pending-area/components/pending-area-page';

/** Pending Area (/pending-area; part 2 §2). */
export function PendingAreaRoute() {
  return <PendingAreaPage />;
}
