import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { closeAlert, getAlert } from '../components/ui/alert-store';
import { api, buildUrl, FAILURE_TEXTS } from './api-client';
import { ApiError } from './api-error';
import { getSession, LOGOUT_URL, logout, startSession } from './session';

function answer(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  closeAlert();
});

describe('buildUrl', () => {
  it('joins prefix, path and query, repeating list values and skipping empty ones', () => {
    expect(buildUrl('/api', '/module/deleted', { pageNumber: 0, pageSize: 50 })).toBe(
      '/api/module/deleted?pageNumber=0&pageSize=50',
    );
    expect(buildUrl('/data', 'export/xls/module', { status: ['WIP', 'SUBMITTED'], withPhoto: undefined })).toBe(
      '/data/export/xls/module?status=WIP&status=SUBMITTED',
    );
  });
});

describe('api', () => {
  it('sends JSON and validates the answer', async () => {
    const fetchMock = stubFetch(answer(200, { value: 3 }));
    const data = await api.post('/x', { a: 1 }, { schema: z.object({ value: z.number() }) });
    expect(data).toEqual({ value: 3 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x');
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('turns { error, message } into an ApiError and shows it in the alert bar', async () => {
    stubFetch(answer(409, { error: 'conflict', message: 'Already there' }));
    const error = await api.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, key: 'conflict', message: 'Already there' });
    expect(getAlert()?.message).toBe('Already there');
  });

  it('keeps the alert bar quiet when the caller handles the error', async () => {
    stubFetch(answer(500, { error: 'internal', message: 'Boom' }));
    await expect(api.get('/x', { alertOnError: false })).rejects.toMatchObject({ status: 500 });
    expect(getAlert()).toBeNull();
  });

  it('surfaces 413 to the caller only', async () => {
    stubFetch(answer(413, { error: 'tooManyResults', message: 'The search returned too many elements' }));
    await expect(api.post('/module/filtered', {})).rejects.toMatchObject({ status: 413, key: 'tooManyResults' });
    expect(getAlert()).toBeNull();
  });

  it('explains answers without a JSON error body by their status', async () => {
    stubFetch(new Response('not here', { status: 404 }));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 404, message: 'Request rejected with status 404' });
  });

  it('reports unexpected answers and unreachable servers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch(answer(200, { value: 'three' }));
    await expect(api.get('/x', { schema: z.object({ value: z.number() }) })).rejects.toMatchObject({
      key: 'invalidResponse',
    });
    stubFetch(new TypeError('Failed to fetch'));
    await expect(api.get('/x')).rejects.toMatchObject({ status: 0, key: 'network' });
    expect(getAlert()?.message).toMatch(/could not be reached/);
  });

  it('ends the session on a 401 for the current token, and the server is asked to clear the cookie', async () => {
    const token = 'header.payload.signature';
    startSession(token, { username: 'a', email: 'a@x', firstName: 'A', lastName: 'B', roles: [] }, 3600);
    const fetchMock = vi.fn(async (url: string) =>
      url === LOGOUT_URL ? new Response(null, { status: 204 }) : answer(401, { error: 'invalidToken', message: 'The session is not valid any more' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toMatchObject({ status: 'anonymous', token: null, logoutReason: 'unauthorized' });
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][];
    expect((calls[0]![1].headers as Record<string, string>).Authorization).toBe(`Bearer ${token}`);
    expect(calls[1]![0]).toBe(LOGOUT_URL);
    expect(calls[1]![1]).toMatchObject({ method: 'POST', keepalive: true });
    logout();
  });
});

describe('a server failure or no answer', () => {
  it('says for a write that nothing was saved and to try again, never the driver text of a 500', async () => {
    stubFetch(answer(500, { error: 'internalError', message: 'connection terminated unexpectedly' }));
    const error = await api.post('/module/save', { a: 1 }, { alertOnError: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, key: 'internalError', message: FAILURE_TEXTS.serverWrite });
    expect(FAILURE_TEXTS.serverWrite).toMatch(/^Nothing was saved: .*Try again\.$/);
    expect((error as Error).message).not.toContain('connection terminated');
  });

  it('says the same for a 5xx without a JSON body (a proxy page) and puts it in the alert bar', async () => {
    stubFetch(new Response('<html>502 Bad Gateway</html>', { status: 502 }));
    await expect(api.put('/x', {})).rejects.toMatchObject({ status: 502, message: FAILURE_TEXTS.serverWrite });
    expect(getAlert()?.message).toBe(FAILURE_TEXTS.serverWrite);
  });

  it('says for a network failure on a write that nothing was saved and to try again, not the browser text', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await api.post('/cluster/save', []).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, key: 'network', message: FAILURE_TEXTS.networkWrite });
    expect(FAILURE_TEXTS.networkWrite).toMatch(/^Nothing was saved: the server could not be reached\..*try again\.$/);
    expect(getAlert()?.message).toBe(FAILURE_TEXTS.networkWrite);
  });

  it('says for a read what happened and to try again, without claiming a save', async () => {
    stubFetch(answer(503, { error: 'internalError', message: 'pool exhausted' }));
    await expect(api.get('/x')).rejects.toMatchObject({ message: FAILURE_TEXTS.serverRead });
    stubFetch(new TypeError('NetworkError when attempting to fetch resource.'));
    await expect(api.get('/x')).rejects.toMatchObject({ message: FAILURE_TEXTS.networkRead });
    for (const text of [FAILURE_TEXTS.serverRead, FAILURE_TEXTS.networkRead]) {
      expect(text).not.toMatch(/saved/);
      expect(text).toMatch(/try again\.$/i);
    }
  });

  it('keeps the message of a 5xx the server words for people (a failed export, a shutdown)', async () => {
    stubFetch(answer(500, { error: 'exportFailed', message: 'The export failed: no rows' }));
    await expect(api.get('/x')).rejects.toMatchObject({ key: 'exportFailed', message: 'The export failed: no rows' });
    stubFetch(answer(503, { error: 'serviceUnavailable', message: 'The server is shutting down' }));
    await expect(api.post('/x', {})).rejects.toMatchObject({ key: 'serviceUnavailable', message: 'The server is shutting down' });
  });
});
