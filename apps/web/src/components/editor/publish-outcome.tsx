/**
 * What both editors show around a publication (docs/LIFECYCLE.md "Publish"): the blocking list of the
 * checks before publishing (nothing is sent), and the planning system's rejection ("Not published").
 */
import { Badge, Button, Group, List, Stack, Text, Tooltip, type MantineSize } from '@mantine/core';
import { modals } from '@mantine/modals';
import { PUBLISH_TEXTS } from '@bo/shared/modules';
import { showMessagePopup, splitMessages } from '@/components/ui/message-popup';

/** One item that may not be published: its name and one line per reason (naming the SKU or module at fault). */
interface BlockedItem {
  name: string;
  lines: string[];
}

/** The checks refused the publication: the list, closed with Ok. Resolves when closed. */
export function showPublishBlocked(items: readonly BlockedItem[]): Promise<void> {
  return new Promise((resolve) => {
    const id = `publish-blocked-${Date.now()}`;
    modals.open({
      modalId: id,
      title: (
        <Text fw={700} c="red">
          {PUBLISH_TEXTS.blockedTitle}
        </Text>
      ),
      centered: true,
      onClose: () => resolve(),
      children: (
        <Stack gap="md" data-testid="publish-blocking">
          <Text fz="sm">{PUBLISH_TEXTS.blockedIntro}</Text>
          <List size="sm" spacing={6}>
            {items.map((item) => (
              <List.Item key={item.name} data-testid="publish-blocking-item">
                <Text fz="sm" fw={650}>
                  {item.name}
                </Text>
                <List size="sm" withPadding>
                  {item.lines.map((line, i) => (
                    <List.Item key={i}>{line}</List.Item>
                  ))}
                </List>
              </List.Item>
            ))}
          </List>
          <Group justify="flex-end">
            <Button size="xs" onClick={() => modals.close(id)}>
              Ok
            </Button>
          </Group>
        </Stack>
      ),
    });
  });
}

/** The lines of a rejection: "Not published: <item>: <reason>", one per reason of the planning system. */
export function notPublishedLines(name: string, rpasErrors: string | null | undefined): string[] {
  const reasons = splitMessages(rpasErrors);
  return (reasons.length ? reasons : ['refused by the planning system']).map((r) => PUBLISH_TEXTS.notPublished(name, r));
}

/**
 * The mark of an item the planning system rejected (WIP with its errors), on home rows and on the
 * editors: a red badge whose tooltip lists the reasons; a click opens them in the "Not published" popup.
 * Nothing when the item is not a rejected WIP.
 */
export function NotPublishedBadge({ name, status, rpasErrors, size = 'sm' }: { name: string; status: string; rpasErrors: string | null | undefined; size?: MantineSize }) {
  if (status !== 'WIP' || !rpasErrors) return null;
  const lines = notPublishedLines(name, rpasErrors);
  return (
    <Tooltip label={lines.join('\n')} multiline w={340} style={{ whiteSpace: 'pre-line' }}>
      <Badge
        size={size}
        color="red"
        variant="filled"
        data-testid="not-published"
        style={{ flexShrink: 0, cursor: 'pointer' }}
        onClick={(e) => {
          e.stopPropagation();
          showMessagePopup(PUBLISH_TEXTS.notPublishedTitle, lines);
        }}
      >
        {PUBLISH_TEXTS.notPublishedBadge}
      </Badge>
    </Tooltip>
  );
}
