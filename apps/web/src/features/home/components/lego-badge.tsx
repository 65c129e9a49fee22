import { Badge, Loader } from '@mantine/core';
import { LEGO_TEXTS, type LegoState } from '../hooks/use-lego-status';

/** 'Checking LEGO...' while the lookup runs, 'LEGO' for a LEGO month, nothing otherwise. */
export function LegoBadge({ state }: { state: LegoState }) {
  if (state === 'checking') {
    return (
      <Badge variant="light" color="gray" radius="sm" leftSection={<Loader size={10} color="gray" />} data-testid="lego-badge" tt="none">
        {LEGO_TEXTS.checking}
      </Badge>
    );
  }
  if (state === 'lego') {
    return (
      <Badge variant="filled" color="grape" radius="sm" data-testid="lego-badge">
        {LEGO_TEXTS.lego}
      </Badge>
    );
  }
  return null;
}
