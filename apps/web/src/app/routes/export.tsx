import { ExportDataPage } from '@/features/exports/components/export-data-page';

/** Export Data (/export; part 2 §2). */
export function ExportRoute() {
  return <ExportDataPage />;
}
