import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.js';

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
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      return reply.status(status).send({ error: 'internalError', message: 'Internal server error' });
    }
    return reply.status(status).send({ error: err.code ?? 'badRequest', message: err.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: 'notFound', message: `No route ${request.method} ${request.url.split('?')[0]}` });
  });
}
