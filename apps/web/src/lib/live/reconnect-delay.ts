/** The first retry comes quickly (a server restart, a proxy's cut), then the waits double up to the cap. */
const RECONNECT_FIRST_MS = 500;
export const RECONNECT_MAX_MS = 30_000;

/**
 * How long to wait before reconnect attempt `attempt` (0 = the first after a loss), with ±20 % jitter so that
 * the tabs of a whole office do not all come back in the same millisecond after a server restart.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.8 + 0.4 * random()));
}
