import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl } from './server';

/** The API as a test calls it beside the browser, with a bearer token: the parsed answer, or an error naming the call. */
export async function apiCall<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/api${path}`, {
    method,
    // A JSON content type only with a body: the server refuses an empty body announced as JSON (400).
    headers: body === undefined ? { authorization: `Bearer ${token}` } : { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The API as the signed-in browser page calls it (the token from its session cookie); expects 200. */
export async function pageApiCall<T>(page: Page, context: BrowserContext, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = (await context.cookies()).find((c) => c.name === 'bo_token')?.value;
  const res = await page.request.fetch(`/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${decodeURIComponent(token ?? '')}`, 'Content-Type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status(), `${method} ${path}`).toBe(200);
  return (await res.json()) as T;
}

/** A demo account's bearer token, for apiCall. */
export async function apiToken(username: string, password = 'demo'): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/authorization/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
