import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { NavigateFunction } from 'react-router';
import { BASE_PATH } from '@/config/app';
import { paths } from '@/config/paths';
import { useLiveMessages } from './use-live';

/** The texts of a job's notification (docs/web-app.md "Live"): the server writes the line, the browser the frame. */
const JOB_NOTICE_TEXTS = {
  done: 'Finished',
  failed: 'Failed',
  open: (where: string) => `Open ${where}`,
  openResult: 'Open the result',
  close: 'Close the notification',
} as const;

/** A finished job stays on screen a while; a failed one until it is closed (the owner must see it). */
const JOB_NOTICE_MS = 15_000;

/** 'Open Upload and Export History' for '/history': the link's screen by the route table's title. */
function jobLinkLabel(link: string): string {
  const pathname = link.split(/[?#]/)[0];
  const route = Object.values(paths).find((p) => p.path === pathname);
  return route ? JOB_NOTICE_TEXTS.open(route.title) : JOB_NOTICE_TEXTS.openResult;
}

/**
 * `job` events of the stream (only the owner receives them): a notification with the server's line and a
 * link to where the result is, on whatever screen the owner is. The screens' own 5-second lists are unchanged.
 */
export function useJobNotifications(navigate: NavigateFunction): void {
  useLiveMessages((message) => {
    if (message.type !== 'job') return;
    const job = message.data;
    const id = `job-${job.id}`;
    const failed = job.status === 'FAILED';
    notifications.show({
      id,
      title: failed ? JOB_NOTICE_TEXTS.failed : JOB_NOTICE_TEXTS.done,
      color: failed ? 'red' : 'teal',
      withBorder: true,
      autoClose: failed ? false : JOB_NOTICE_MS,
      closeButtonProps: { 'aria-label': JOB_NOTICE_TEXTS.close },
      message: (
        <span data-testid="job-notice" data-job={job.id} data-status={job.status}>
          <Text component="span" fz="sm" display="block" c="dark.7">
            {job.title}
          </Text>
          {job.link && (
            <Anchor
              href={`${BASE_PATH}${job.link}`}
              fz="sm"
              fw={600}
              onClick={(event) => {
                event.preventDefault();
                notifications.hide(id);
                void navigate(job.link!);
              }}
            >
              {jobLinkLabel(job.link)}
            </Anchor>
          )}
        </span>
      ),
    });
  });
}
