import { Stack, Text } from '@mantine/core';
import { moduleKeyString } from '@bo/shared/item-keys';
import { WORKING_AREA_TEXTS } from '@bo/shared/working-area';
import { countCautionLine, type EditorModule } from '../hooks/editor-reducer';

/**
 * The counts caution before a save or publish: the spec's sentence, then each module whose count
 * differs with both numbers (this month, previous month), so the planner sees what differs.
 */
export function countCautionMessage(differ: readonly EditorModule[], single: boolean) {
  return (
    <Stack gap={6} data-testid="count-caution">
      <Text fz="sm">{single ? WORKING_AREA_TEXTS.countCaution : WORKING_AREA_TEXTS.countCautionPlural}</Text>
      {differ.map((m) => (
        <Text key={moduleKeyString(m.dto)} fz="sm" c="dimmed">
          {countCautionLine(m)}
        </Text>
      ))}
    </Stack>
  );
}
