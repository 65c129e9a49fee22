/**
 * The planning system for the browser tests: an HTTP server outside ours, which the server under test
 * reaches as `PLANNING_SYSTEM=http`. Like the real system it answers each submission after a while
 * (1.5 s, the outbox's default) and applies the planning system's checks (the same functions the outbox
 * gateway runs); a test may also tell it to refuse the next submission of one item with given reasons
 * (`POST /script/reject`), which is how a rejection after submission happens in real life.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { planningSystemChecks, type Submission } from '../../server/src/items/lifecycle/planning-gateway';

const ANSWER_DELAY_MS = 1500;

export interface PlanningSystemStandIn {
  /** Where the server under test sends its submissions. */
  submitUrl: string;
  /** Where a test scripts the next rejection of one item. */
  scriptUrl: string;
  close(): Promise<void>;
}

const keyOf = (s: { itemType: string; itemKey: string; monthId: string }) => `${s.itemType}:${s.itemKey}:${s.monthId}`;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

export async function startPlanningSystemStandIn(): Promise<PlanningSystemStandIn> {
  const scripted = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    void (async () => {
      try {
        if (req.method === 'POST' && req.url === '/submit') {
          const submission = (await readJson(req)) as Submission;
          await new Promise((r) => setTimeout(r, ANSWER_DELAY_MS));
          const key = keyOf(submission);
          const errors = scripted.get(key) ?? planningSystemChecks(submission);
          scripted.delete(key);
          answer(200, errors.length ? { accepted: false, errors } : { accepted: true });
        } else if (req.method === 'POST' && req.url === '/script/reject') {
          const body = (await readJson(req)) as { itemType: string; itemKey: string; monthId: string; errors: string[] };
          scripted.set(keyOf(body), body.errors);
          answer(204);
        } else answer(404, { message: 'unknown' });
      } catch (err) {
        answer(400, { message: String(err) });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    submitUrl: `${base}/submit`,
    scriptUrl: `${base}/script/reject`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
