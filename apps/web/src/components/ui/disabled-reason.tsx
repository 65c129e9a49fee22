import { type FloatingPosition, Tooltip, VisuallyHidden } from '@mantine/core';
import { cloneElement, type KeyboardEvent, type MouseEvent, type ReactElement, type ReactNode, useId } from 'react';

export interface DisabledReasonProps {
  /**
   * Why the action cannot be used now (e.g. 'You need a create right for a brand'). When set, the button is shown
   * disabled but stays focusable (`aria-disabled`, not `disabled`), ignores clicks and keys, and the reason is its
   * tooltip (hover and keyboard focus) and its accessible description. Falsy: the button is usable.
   */
  reason?: string | false | null;
  /** The tooltip while the action is usable (optional, e.g. an icon button's name). */
  label?: ReactNode;
  position?: FloatingPosition;
  /** One button (Mantine Button or ActionIcon, or any element taking aria props and a ref). */
  children: ReactElement<Record<string, unknown>>;
}

const swallow = (e: MouseEvent | KeyboardEvent) => {
  e.preventDefault();
  e.stopPropagation();
};

/**
 * A button that says why it is disabled: every disabled action of the app goes through this (issue 34), so a
 * planner, a viewer and a keyboard or screen reader user all learn the reason. The button keeps its tab stop
 * (a `disabled` button is skipped by Tab and shows no tooltip), carries `aria-disabled="true"`,
 * `data-disabled` (Mantine's disabled look) and `data-disabled-reason`, and is described by the reason.
 */
export function DisabledReason({ reason, label, position, children }: DisabledReasonProps) {
  const id = useId();
  if (!reason) {
    if (!label) return children;
    return (
      <Tooltip label={label} position={position} withArrow events={{ hover: true, focus: true, touch: false }}>
        {children}
      </Tooltip>
    );
  }
  const describedBy = [children.props['aria-describedby'], id].filter(Boolean).join(' ');
  const button = cloneElement(children, {
    disabled: false,
    'data-disabled': true,
    'aria-disabled': true,
    'aria-describedby': describedBy,
    'data-disabled-reason': reason,
    onClick: swallow,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') swallow(e);
    },
    onPointerDown: undefined,
  });
  return (
    <>
      <Tooltip label={reason} position={position} withArrow multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
        {button}
      </Tooltip>
      <VisuallyHidden id={id}>{reason}</VisuallyHidden>
    </>
  );
}
