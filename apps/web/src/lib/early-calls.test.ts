import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client';
import { discardEarlyCalls } from './early-calls';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** What public/early-calls.js leaves in `window.__boEarlyCalls` for one call. */
function earlyCall(method: string, path: string, body: string | null, token: string | null, response: Response, release?: () => void) {
  const data = response.ok ? response.clone().json() : Promise.resolve(undefined);
  return { [`${method} ${path}`]: { method, path, body, token: Promise.resolve(token), response: Promise.resolve(response), data, release } };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('early calls (public/early-calls.js)', () => {
  it('are taken once by the same call (method, path, body, token): no request is sent', async () => {
    const calls = earlyCall('POST', '/api/module/modules', '{"moduleDtoList":[{"moduleName":"A","monthId":"M01_2027"}]}', null, json([{ productDtoList: [] }]));
    vi.stubGlobal('window', { __boEarlyCalls: calls });
    const fetchMock = vi.fn(async () => json(['sent']));
    vi.stubGlobal('fetch', fetchMock);

    await expect(api.post('/module/modules', { moduleDtoList: [{ moduleName: 'A', monthId: 'M01_2027' }] }, { token: null })).resolves.toEqual([{ productDtoList: [] }]);
    expect(fetchMock).not.toHaveBeenCalled();
    // Taken: the same call again goes to the network.
    await expect(api.post('/module/modules', { moduleDtoList: [{ moduleName: 'A', monthId: 'M01_2027' }] }, { token: null })).resolves.toEqual(['sent']);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('another body goes to the network and leaves the early call', async () => {
    const calls = earlyCall('POST', '/api/module/modules', '{"moduleDtoList":[]}', null, json(['early']));
    vi.stubGlobal('window', { __boEarlyCalls: calls });
    const fetchMock = vi.fn(async () => json(['sent']));
    vi.stubGlobal('fetch', fetchMock);

    await expect(api.post('/module/modules', { moduleDtoList: [{ moduleName: 'B', monthId: 'M01_2027' }] }, { token: null })).resolves.toEqual(['sent']);
    expect(Object.keys(calls)).toEqual(['POST /api/module/modules']);
  });

  it('sent with another token: the client sends its own, and an early lock is released', async () => {
    const release = vi.fn();
    const calls = earlyCall('POST', '/api/module/lock', '[]', 'old-token', json(['early']), release);
    vi.stubGlobal('window', { __boEarlyCalls: calls });
    const fetchMock = vi.fn(async () => json(['sent']));
    vi.stubGlobal('fetch', fetchMock);

    await expect(api.post('/module/lock', [], { token: 'new-token' })).resolves.toEqual(['sent']);
    expect(release).toHaveBeenCalledTimes(1);
    expect(calls).toEqual({});
  });

  it('an error answer is the API client\'s as if it had sent the call', async () => {
    const calls = earlyCall('GET', '/api/authorization/grant', null, null, json({ error: 'forbidden', message: 'No' }, 403));
    vi.stubGlobal('window', { __boEarlyCalls: calls });
    vi.stubGlobal('fetch', vi.fn());

    await expect(api.get('/authorization/grant', { token: null, alertOnError: false })).rejects.toMatchObject({ status: 403, message: 'No' });
  });

  it('logout discards them and releases early locks', () => {
    const release = vi.fn();
    const calls = earlyCall('POST', '/api/module/lock', '[]', 't', json([]), release);
    vi.stubGlobal('window', { __boEarlyCalls: calls });
    discardEarlyCalls();
    expect(release).toHaveBeenCalledTimes(1);
    expect(calls).toEqual({});
  });
});
