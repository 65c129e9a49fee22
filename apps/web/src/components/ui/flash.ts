import { notifications } from '@mantine/notifications';

type FlashKind = 'success' | 'info' | 'warning' | 'error';

/** Flash messages disappear after 4 seconds (spec part 1 §9). */
export const FLASH_DURATION_MS = 4000;

const colors: Record<FlashKind, string> = {
  success: 'teal',
  info: 'blue',
  warning: 'orange',
  error: 'red',
};

/** A short-lived message in the corner, e.g. flash('The user has been added'). */
export function flash(
  message: string,
  kind: FlashKind = 'success',
  options: { title?: string; autoClose?: number } = {},
): string {
  return notifications.show({
    message,
    title: options.title,
    color: colors[kind],
    autoClose: options.autoClose ?? FLASH_DURATION_MS,
    withBorder: true,
  });
}
