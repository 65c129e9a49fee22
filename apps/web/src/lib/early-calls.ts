/**
 * The calls `public/early-calls.js` started before the app's code loaded (docs/web-app.md "Early
 * calls"). The API client asks here before it sends a call: an early call with the same method, path,
 * body and token is taken (once) and its answer used as if the client had sent it.
 */
interface EarlyCall {
  method: string;
  path: string;
  body: string | null;
  /** The token the call was sent with (null: the session cookie); rejects when it was not sent. */
  token: Promise<string | null>;
  response: Promise<Response>;
  /** The parsed JSON of a successful answer (undefined for an error answer, whose body is left unread). */
  data: Promise<unknown>;
  /** Lock calls: releases what the call took (it was not used). */
  release?: () => void;
}

interface EarlyAnswer {
  response: Response;
  /** The parsed body when `response.ok` (already read: do not read the response's body again). */
  data: Promise<unknown>;
}

declare global {
  interface Window {
    __boEarlyCalls?: Record<string, EarlyCall>;
  }
}

const calls = (): Record<string, EarlyCall> | undefined => (typeof window === 'undefined' ? undefined : window.__boEarlyCalls);

/**
 * The answer of the early call equal to this one, or null (send it). The promise resolves to null when
 * the early call was sent with another token or never sent (no session): the caller then sends its own.
 * A matching call is taken even then: an early lock taken with another token is released.
 */
export function takeEarlyCall(method: string, path: string, body: string | null, token: string | null): Promise<EarlyAnswer | null> | null {
  const all = calls();
  const key = `${method} ${path}`;
  const call = all?.[key];
  if (!all || !call || call.body !== body) return null;
  delete all[key];
  return call.token.then(
    (sent) => {
      if (sent === token) return call.response.then((response) => ({ response, data: call.data }));
      call.release?.();
      return null;
    },
    () => null,
  );
}

/** Logout: early calls belong to the session that ended; locks they took are released. */
export function discardEarlyCalls(): void {
  const all = calls();
  if (!all) return;
  for (const key of Object.keys(all)) {
    all[key]!.release?.();
    delete all[key];
  }
}
