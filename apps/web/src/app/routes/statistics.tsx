import { StatisticsPage } from '@/features/statistics/components/statistics-page';

/** Statistics (/statistics; part 2 §2), reached from home with the month and brands in the query. */
export function StatisticsRoute() {
  return <StatisticsPage />;
}
