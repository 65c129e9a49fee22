import { Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Server texts carry several messages separated by ';': one line each (spec part 1 §8). */
export const splitMessages = (text: string | null | undefined) =>
  (text ?? '')
    .split(';')
    .map((line) => line.trim())
    .filter(Boolean);

/** A popup with a title and one line per message, closed with Ok. */
export function showMessagePopup(title: string, text: string | string[], color: 'red' | 'orange' | 'blue' = 'red'): void {
  const lines = Array.isArray(text) ? text : splitMessages(text);
  const id = `message-${Date.now()}-${Math.random()}`;
  modals.open({
    modalId: id,
    title: (
      <Text fw={700} c={color === 'blue' ? undefined : color}>
        {title}
      </Text>
    ),
    centered: true,
    children: (
      <Stack gap="md" data-testid="message-popup">
        <Stack gap={4}>
          {lines.map((line, i) => (
            <Text key={i} fz="sm">
              {line}
            </Text>
          ))}
        </Stack>
        <Group justify="flex-end">
          <Button size="xs" onClick={() => modals.close(id)}>
            Ok
          </Button>
        </Group>
      </Stack>
    ),
  });
}
