import { Badge, Tooltip } from '@mantine/core';
import type { SuggestedCluster } from '@bo/shared/suggested-clusters';

const STATUS_COLORS: Record<string, string> = { PENDING: 'yellow', APPROVED: 'teal', REJECTED: 'red' };

/** A suggestion's status; a REJECTED one shows its reject message as a tooltip (part 2 §2). */
export function SuggestionStatus({ line }: { line: SuggestedCluster }) {
  const badge = (
    <Badge color={STATUS_COLORS[line.status]} variant="light" data-testid={line.status === 'REJECTED' && line.message ? 'rejected-status' : undefined}>
      {line.status}
    </Badge>
  );
  if (line.status !== 'REJECTED' || !line.message) return badge;
  return (
    <Tooltip label={line.message} withArrow multiline maw={320}>
      {badge}
    </Tooltip>
  );
}
