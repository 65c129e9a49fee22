/**
 * The live event stream and presence (docs/LIVE.md): GET /api/events answered as Server-Sent Events, PUT and DELETE
 * /api/presence. The stream's first frame is `hello`; it ends at the token's expiry, at a logout or a disabled user
 * (the session is checked again, as every request is), and when the server stops; its tab's presence goes with it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import { LIVE_EVENTS_PATH, PRESENCE_PATH, presenceBody } from '@bo/shared/live-events';
import { contextOf } from '../../plugins/context.js';
import { unauthorized } from '../../lib/errors.js';
import { authenticate } from '../../auth/auth.service.js';
import { requestToken } from '../../auth/session-cookie.js';
import type { TokenService } from '../../auth/token.js';
import type { LiveHub } from './live-hub.js';
import { LiveStream } from './live-stream.js';
import { removeTabPresence } from './live.repository.js';
import { claimCallerTab, deletePresence, putPresence } from './presence.service.js';

const tags = ['live'];
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

export function liveRoutes(tokens: TokenService, hub: LiveHub) {
  return async function routes(instance: FastifyInstance) {
    const app = instance.withTypeProvider<ZodTypeProvider>();

    app.get(
      LIVE_EVENTS_PATH,
      {
        schema: {
          tags,
          summary:
            'The live event stream of one browser tab (text/event-stream: hello, item, scope, presence, job, lockLost; a ": ping" comment every 15 s). Never ends by itself.',
          querystring: z.object({ tab: z.uuid() }),
          response: { 200: z.string().describe('text/event-stream'), ...errors },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(app, request);
        const token = requestToken(request, 'reads');
        const payload = token ? await tokens.verify(token) : null;
        if (!token || !payload) throw unauthorized('The session is not valid any more', 'invalidToken');
        const openedAt = await claimCallerTab(ctx, request.query.tab);
        // Listening before the first frame: a change committed after `hello` reaches this stream.
        await hub.ready();

        reply.hijack();
        const raw = reply.raw;
        // The headers the hooks set (security headers, no-store) go too: a hijacked reply does not send them itself.
        const set = Object.fromEntries(Object.entries(reply.getHeaders()).filter((e): e is [string, string | number | string[]] => e[1] !== undefined));
        raw.writeHead(200, {
          ...set,
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
          'x-request-id': request.id,
        });
        raw.socket?.setNoDelay(true);
        const stream = new LiveStream(raw, ctx.user, request.query.tab);
        const recheck = () =>
          authenticate(app.database.db, tokens, token).then(
            (user) => user,
            () => null,
          );
        hub.add(stream, { key: token, recheck }, payload.exp * 1000);
        stream.whenClosed(() => {
          // Another stream of the tab open here, or a newer one opened in any process (removeTabPresence): it stays.
          if (hub.tabOpenElsewhere(stream)) return;
          removeTabPresence(app.database.db, stream.tabId, openedAt).catch((err: unknown) => request.log.warn({ err }, 'live events: presence of a closed stream not removed'));
        });
        try {
          await hub.hello(stream);
        } catch (err) {
          request.log.warn({ err }, 'live events: hello not sent');
          stream.close();
        }
      },
    );

    app.put(
      PRESENCE_PATH,
      {
        schema: {
          tags,
          summary: "Replace what one tab has open (and renew it, with the caller's locks on the items it edits)",
          body: presenceBody,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await putPresence(contextOf(app, request), request.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      `${PRESENCE_PATH}/:tabId`,
      {
        schema: {
          tags,
          summary: 'A tab closed: forget what it had open',
          params: z.object({ tabId: z.uuid() }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deletePresence(contextOf(app, request), request.params.tabId);
        return reply.code(204).send(null);
      },
    );
  };
}
