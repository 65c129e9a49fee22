import { DiscoAreaPage } from '@/features/disco-area/components/disco-area-page';

/** Discontinuation / Removed Area (/disco-remove-area; part 2 §2). */
export function DiscoRemoveAreaRoute() {
  return <DiscoAreaPage />;
}
