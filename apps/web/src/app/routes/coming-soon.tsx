import { PageContent } from '@/components/layout/page-content';
import { PlaceholderPage } from '@/components/ui/placeholder-page';

/** A route of the table whose screen arrives with later work. */
export function ComingSoonRoute({ title }: { title: string }) {
  return (
    <PageContent>
      <PlaceholderPage title={title} />
    </PageContent>
  );
}
