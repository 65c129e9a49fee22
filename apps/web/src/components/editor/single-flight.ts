import { useState } from 'react';

/**
 * One run at a time per key: a call made while the same key is still running is ignored (answers
 * undefined). The editors wrap Save, Publish and their siblings in it, so that a double click, or a
 * click landing before the button has re-rendered as disabled, sends one request, not two.
 */
export type SingleFlight = <T>(key: string, work: () => Promise<T>) => Promise<T | undefined>;

export function createSingleFlight(): SingleFlight {
  const running = new Set<string>();
  return async (key, work) => {
    if (running.has(key)) return undefined;
    running.add(key);
    try {
      return await work();
    } finally {
      running.delete(key);
    }
  };
}

/** A SingleFlight that lives as long as the component. */
export function useSingleFlight(): SingleFlight {
  return useState(createSingleFlight)[0];
}
