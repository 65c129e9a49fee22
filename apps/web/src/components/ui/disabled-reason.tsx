import { type FloatingPosition, Tooltip } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { cloneElement, type FocusEvent, type KeyboardEvent, type MouseEvent, type PointerEvent, type ReactElement, type ReactNode, type Ref, useRef, useState } from 'react';

export interface DisabledReasonProps {
  /**
   * Why the action cannot be used now (e.g. 'You need a create right for a brand'). When set, the button is shown
   * disabled but stays focusable (`aria-disabled`, not `disabled`), ignores clicks and Enter/Space, and the reason is
   * its tooltip (pointer and keyboard focus) and its accessible description. Falsy: the button is usable.
   */
  reason?: string | false | null;
  /** The tooltip while the action is usable (optional, e.g. an icon button's name). */
  label?: ReactNode;
  position?: FloatingPosition;
  /** One button (Mantine Button or ActionIcon, or any element taking aria props, handlers and a ref). */
  children: ReactElement<ChildProps>;
}

interface ChildProps {
  ref?: Ref<HTMLElement>;
  disabled?: boolean;
  onClick?: (e: MouseEvent) => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  onFocus?: (e: FocusEvent) => void;
  onBlur?: (e: FocusEvent) => void;
  onPointerEnter?: (e: PointerEvent) => void;
  onPointerLeave?: (e: PointerEvent) => void;
  [attribute: string]: unknown;
}

const swallow = (e: MouseEvent | KeyboardEvent) => {
  e.preventDefault();
  e.stopPropagation();
};

/**
 * A button that says why it is disabled: every disabled action of the app goes through this (issue 34), so a
 * planner, a viewer and a keyboard or screen reader user all learn the reason. The button keeps its tab stop
 * (a `disabled` button is skipped by Tab and shows no tooltip), carries `aria-disabled="true"`, `data-disabled`
 * (Mantine's disabled look) and `data-disabled-reason`, and the reason is its accessible description
 * (`aria-description`: no second copy of the text in the page, which a visually hidden element would be).
 *
 * The tooltip (reason, or `label` while usable) opens on pointer entry and on keyboard focus, closes on leave,
 * blur and Escape. It is mounted on first use only: a page of 60 module cards does not build a floating-ui
 * setup for each of their buttons.
 */
export function DisabledReason({ reason, label, position, children }: DisabledReasonProps) {
  const target = useRef<HTMLElement>(null);
  const ref = useMergedRef(target, children.props.ref);
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const tip = reason || label;
  if (!tip) return children;
  const p = children.props;
  const events = {
    ref,
    onPointerEnter: (e: PointerEvent) => {
      p.onPointerEnter?.(e);
      setArmed(true);
      setOpen(true);
    },
    onPointerLeave: (e: PointerEvent) => {
      p.onPointerLeave?.(e);
      setOpen(false);
    },
    onFocus: (e: FocusEvent) => {
      p.onFocus?.(e);
      // The keyboard's focus (not a click's): the reason is read out anyway, the tooltip shows it.
      if ((e.target as HTMLElement).matches(':focus-visible')) {
        setArmed(true);
        setOpen(true);
      }
    },
    onBlur: (e: FocusEvent) => {
      p.onBlur?.(e);
      setOpen(false);
    },
  };
  const escape = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      setOpen(false);
      e.stopPropagation();
    }
  };
  const button = reason
    ? cloneElement(children, {
        ...events,
        disabled: false,
        'data-disabled': true,
        'aria-disabled': true,
        'aria-description': reason,
        'data-disabled-reason': reason,
        onClick: swallow,
        onKeyDown: (e: KeyboardEvent) => {
          escape(e);
          if (e.key === 'Enter' || e.key === ' ') swallow(e);
        },
      })
    : cloneElement(children, {
        ...events,
        onKeyDown: (e: KeyboardEvent) => {
          escape(e);
          p.onKeyDown?.(e);
        },
      });
  return (
    <>
      {button}
      {armed && <Tooltip target={target} opened={open} label={tip} position={position} withArrow multiline={!!reason} maw={reason ? 320 : undefined} />}
    </>
  );
}
