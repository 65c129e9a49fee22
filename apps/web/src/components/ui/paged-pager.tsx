import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { checkPageJump, normalisePageInput } from './page-jump';

/**
 * The server-paged pager of the Pending and Disco/Removed areas (part 2 §2, §5): 'Go to page' with Apply
 * (rules in page-jump.ts), first page, Back, 'Page: n / total', Next, last page. `page` is one-based.
 * `testId` prefixes the test ids (`{testId}-pager`, `-page-input`, `-page-apply`, `-page`, `-next`);
 * `extra` sits beside the buttons (the disco area's totals).
 */
export function PagedPager({ page, total, onPage, testId, extra }: { page: number; total: number; onPage: (page: number) => void; testId: string; extra?: ReactNode }) {
  const [input, setInput] = useState('');
  const jump = checkPageJump(input, page, total);
  const go = (to: number) => {
    setInput('');
    onPage(to);
  };
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid={`${testId}-pager`}>
      <Group gap="xs" align="flex-start">
        <TextInput
          size="xs"
          w={120}
          placeholder="Go to page"
          aria-label="Go to page"
          value={input}
          onChange={(e) => setInput(e.currentTarget.value)}
          onBlur={() => setInput(normalisePageInput(input))}
          onKeyDown={(e) => e.key === 'Enter' && jump.ok && go(jump.page)}
          error={jump.ok ? undefined : (jump.error ?? undefined)}
          data-testid={`${testId}-page-input`}
        />
        <Button size="xs" variant="light" disabled={!jump.ok} onClick={() => jump.ok && go(jump.page)} data-testid={`${testId}-page-apply`}>
          Apply
        </Button>
      </Group>
      {extra}
      <Group gap={4}>
        <ActionIcon variant="subtle" aria-label="First page" disabled={page <= 1} onClick={() => go(1)}>
          <IconChevronsLeft size={16} />
        </ActionIcon>
        <Button size="xs" variant="subtle" leftSection={<IconChevronLeft size={14} />} disabled={page <= 1} onClick={() => go(page - 1)}>
          Back
        </Button>
        <Text fz="sm" px="xs" data-testid={`${testId}-page`}>
          Page: {page} / {total}
        </Text>
        <Button size="xs" variant="subtle" rightSection={<IconChevronRight size={14} />} disabled={page >= total} onClick={() => go(page + 1)} data-testid={`${testId}-next`}>
          Next
        </Button>
        <ActionIcon variant="subtle" aria-label="Last page" disabled={page >= total} onClick={() => go(total)}>
          <IconChevronsRight size={16} />
        </ActionIcon>
      </Group>
    </Group>
  );
}
