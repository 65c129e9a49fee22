import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@bo/shared/errors';
import {
  clusterHistoryQuerySchema,
  clusterPublishDiffRequestSchema,
  clusterPublishDiffSchema,
  clusterVersionDetailSchema,
  historyPageSchema,
  moduleHistoryQuerySchema,
  modulePublishDiffRequestSchema,
  modulePublishDiffSchema,
  moduleVersionDetailSchema,
  versionParamsSchema,
} from '@bo/shared/item-versions';
import { clusterKeySchema } from '@bo/shared/clusters';
import { moduleKeySchema } from '@bo/shared/modules';
import { contextOf, type ServiceContext } from '../../plugins/context.js';
import type { VersionedType } from '../../items/lifecycle/item-versions.repository.js';
import * as versions from './item-versions.service.js';

const errors = { 400: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const tags = ['item-versions'];

type App = ReturnType<typeof withZod>;
const withZod = (instance: FastifyInstance) => instance.withTypeProvider<ZodTypeProvider>();

/** What one kind of item brings to its routes: the query naming an item, the version and diff schemas, texts and service calls. */
interface VersionKind<Key extends z.ZodType<{ monthId: string }>, Detail extends z.ZodType, DiffRequest extends z.ZodType, Diff extends z.ZodType> {
  type: VersionedType;
  key: Key;
  historyQuery: z.ZodType<z.output<Key> & { page: number }>;
  itemKey: (key: z.output<Key>) => string;
  versionSummary: string;
  detail: Detail;
  version: (ctx: ServiceContext, itemKey: string, monthId: string, n: number) => Promise<z.input<Detail>>;
  diffSummary: string;
  diffRequest: DiffRequest;
  diff: Diff;
  publishDiff: (ctx: ServiceContext, items: z.output<DiffRequest>) => Promise<z.input<Diff>[]>;
}

/**
 * A kind's routes as two steps: its history and version routes, then its publish diff route (every
 * kind's history routes come first). The schemas are generic here, which the type provider cannot
 * resolve: the request's parts are read as their schemas' output, and `VersionKind` checks each kind's
 * service calls against its schemas where the kind is written.
 */
function versionKind<Key extends z.ZodType<{ monthId: string }>, Detail extends z.ZodType, DiffRequest extends z.ZodType, Diff extends z.ZodType>(
  kind: VersionKind<Key, Detail, DiffRequest, Diff>,
) {
  const detail: z.ZodType = kind.detail;
  const diff: z.ZodType = kind.diff;
  return {
    history(app: App) {
      app.get(
        `/api/${kind.type}/history`,
        { schema: { tags, summary: `A ${kind.type}’s versions in a month, newest first, paged`, querystring: kind.historyQuery, response: { 200: historyPageSchema, ...errors } } },
        (request) => {
          const query = request.query as z.output<Key> & { page: number };
          return versions.history(contextOf(app, request), kind.type, kind.itemKey(query), query.monthId, query.page);
        },
      );
      app.get(
        `/api/${kind.type}/history/version/:n`,
        { schema: { tags, summary: kind.versionSummary, params: versionParamsSchema, querystring: kind.key, response: { 200: detail, ...errors } } },
        (request) => {
          const query = request.query as z.output<Key>;
          return kind.version(contextOf(app, request), kind.itemKey(query), query.monthId, request.params.n);
        },
      );
    },
    publishDiff(app: App) {
      app.post(
        `/api/${kind.type}/publishDiff`,
        { schema: { tags, summary: kind.diffSummary, body: kind.diffRequest, response: { 200: z.array(diff), ...errors } } },
        (request) => kind.publishDiff(contextOf(app, request), request.body as z.output<DiffRequest>),
      );
    },
  };
}

const KINDS = [
  versionKind({
    type: 'module',
    key: moduleKeySchema,
    historyQuery: moduleHistoryQuerySchema,
    itemKey: (key) => key.moduleName,
    versionSummary: 'One version of a module: its content, SKUs no longer existing or discontinued flagged',
    detail: moduleVersionDetailSchema,
    version: versions.moduleVersion,
    diffSummary: 'What a publish changes: each module (unsaved lines when sent) against its last published version and the previous month’s',
    diffRequest: modulePublishDiffRequestSchema,
    diff: modulePublishDiffSchema,
    publishDiff: versions.modulePublishDiff,
  }),
  versionKind({
    type: 'cluster',
    key: clusterKeySchema,
    historyQuery: clusterHistoryQuerySchema,
    itemKey: (key) => key.clusterId,
    versionSummary: 'One version of a cluster: its content, stores and modules no longer in the month flagged',
    detail: clusterVersionDetailSchema,
    version: versions.clusterVersion,
    diffSummary: 'What a publish changes: each cluster against its last published version and the previous month’s (stores, modules, SKUs per store)',
    diffRequest: clusterPublishDiffRequestSchema,
    diff: clusterPublishDiffSchema,
    publishDiff: versions.clusterPublishDiff,
  }),
];

/** Item versions (docs/versions.md): history pages, one version, and the diff before a publish. */
export async function itemVersionsRoutes(instance: FastifyInstance) {
  const app = withZod(instance);
  for (const kind of KINDS) kind.history(app);
  for (const kind of KINDS) kind.publishDiff(app);
}
