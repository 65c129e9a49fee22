import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import { formatInteger } from '@/lib/format';
import { checkPageJump, normalisePageInput, pageCount } from './page-jump';

/**
 * The one pager of every paged table. 'Go to page' with Apply follows one rule everywhere
 * (page-jump.ts: a page past the end or the current page is refused with its reason, never clamped).
 * `page` is one-based; `total` is the page count.
 * - `full` (the server-paged Pending and Disco/Removed areas, part 2 §2, §5): first page, Back,
 *   'Page: n / total', Next, last page.
 * - `simple` (the client-paged tables: Deletion Area, part 2 §2, §5, and the admin tables): Previous, Next.
 * `testId` prefixes the test ids (`{testId}-pager`, `-page-input`, `-page-apply`, `-page`, `-next`);
 * `extra` sits beside the buttons (the disco area's totals, a client table's 'from–to of total').
 */
export function PagedPager({
  page,
  total,
  onPage,
  testId,
  extra,
  variant = 'full',
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
  testId: string;
  extra?: ReactNode;
  variant?: 'full' | 'simple';
}) {
  const [input, setInput] = useState('');
  const jump = checkPageJump(input, page, total);
  const go = (to: number) => {
    setInput('');
    onPage(to);
  };
  const full = variant === 'full';
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
        {full && (
          <ActionIcon variant="subtle" aria-label="First page" disabled={page <= 1} onClick={() => go(1)}>
            <IconChevronsLeft size={16} />
          </ActionIcon>
        )}
        <Button size="xs" variant="subtle" leftSection={<IconChevronLeft size={14} />} disabled={page <= 1} onClick={() => go(page - 1)}>
          {full ? 'Back' : 'Previous'}
        </Button>
        {full && (
          <Text fz="sm" px="xs" data-testid={`${testId}-page`}>
            Page: {page} / {total}
          </Text>
        )}
        <Button size="xs" variant="subtle" rightSection={<IconChevronRight size={14} />} disabled={page >= total} onClick={() => go(page + 1)} data-testid={`${testId}-next`}>
          Next
        </Button>
        {full && (
          <ActionIcon variant="subtle" aria-label="Last page" disabled={page >= total} onClick={() => go(total)}>
            <IconChevronsRight size={16} />
          </ActionIcon>
        )}
      </Group>
    </Group>
  );
}

interface ClientPages<T> {
  /** The page shown (one-based), within 1..pages even when the rows shrank. */
  page: number;
  pages: number;
  visible: T[];
  setPage: (page: number) => void;
}

/** Client-side paging of rows already filtered and sorted: back to page 1 whenever `resetKey` changes. */
export function useClientPages<T>(rows: readonly T[], pageSize: number, resetKey?: unknown): ClientPages<T> {
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [resetKey]);
  const pages = pageCount(rows.length, pageSize);
  const current = Math.min(page, pages);
  return { page: current, pages, visible: rows.slice((current - 1) * pageSize, current * pageSize), setPage };
}

/**
 * A client-paged table's pager: its 'from–to of total' line (`suffix` after it) beside the simple pager;
 * with `hideWithOnePage`, a single page shows the line alone.
 */
export function ClientPager<T>({
  paging,
  count,
  pageSize,
  testId,
  suffix,
  hideWithOnePage = false,
}: {
  paging: ClientPages<T>;
  count: number;
  pageSize: number;
  testId: string;
  suffix?: ReactNode;
  hideWithOnePage?: boolean;
}) {
  const { page, pages, setPage } = paging;
  const range = (
    <Text fz="xs" c="dimmed" data-testid="table-range">
      {formatInteger((page - 1) * pageSize + 1)}–{formatInteger(Math.min(page * pageSize, count))} of {formatInteger(count)}
      {suffix}
    </Text>
  );
  if (hideWithOnePage && pages <= 1) return <Group px="xs">{range}</Group>;
  return <PagedPager variant="simple" page={page} total={pages} onPage={setPage} testId={testId} extra={range} />;
}
