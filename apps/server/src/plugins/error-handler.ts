import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { sqlStateOf } from '../lib/error-chain.js';
import { AppError } from '../lib/errors.js';

/**
 * What a data exception (SQLSTATE class 22: a value the column cannot hold) tells the caller. The
 * schemas refuse such values first (packages/shared/src/numbers.ts, plugins/input-hygiene.ts); this is
 * the safety net for one they miss: a 400 without the database's own text.
 */
function dataExceptionMessage(state: string): string {
  if (state === '22003') return 'Invalid value: a number is out of range';
  if (state === '22001') return 'Invalid value: a text is too long';
  if (state === '22021' || state === '22P05') return 'Invalid value: a text holds a character that cannot be stored';
  if (state === '22007' || state === '22008') return 'Invalid value: a date or time is not valid';
  if (state === '22P02') return 'Invalid value: a value does not have the expected format';
  return 'Invalid value';
}

/** Stable keys for the framework's own client errors (FST_ERR_CTP_INVALID_JSON_BODY …): the contract's keys, not Fastify's. */
const KEY_BY_STATUS: Record<number, string> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  405: 'methodNotAllowed',
  406: 'notAcceptable',
  408: 'requestTimeout',
  413: 'payloadTooLarge',
  414: 'uriTooLong',
  415: 'unsupportedMediaType',
  431: 'headersTooLarge',
};

/** One handler turns every error into `{ error, message }` (and `fields` for bad input). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send({ error: err.key, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        path: [err.validationContext, ...String(v.instancePath ?? '').split('/').filter(Boolean)].join('.'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({
        error: 'badRequest',
        message: `Invalid request: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`,
        fields,
      });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response does not match its schema');
      return reply.status(500).send({ error: 'internalError', message: 'Internal server error' });
    }
    const state = sqlStateOf(err);
    if (state?.startsWith('22')) {
      request.log.warn({ err, sqlState: state }, 'the database refused a value of the request');
      return reply.status(400).send({ error: 'badRequest', message: dataExceptionMessage(state) });
    }
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(status).send({ error: 'internalError', message: 'Internal server error' });
    }
    const key = typeof err.code === 'string' && err.code.startsWith('FST_') ? (KEY_BY_STATUS[status] ?? 'badRequest') : (err.code ?? 'badRequest');
    return reply.status(status).send({ error: key, message: err.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: 'notFound', message: `No route ${request.method} ${request.url.split('?')[0]}` });
  });
}
