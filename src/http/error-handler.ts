// The one place where errors become HTTP answers: RFC 9457 problem details with a
// stable code, the field pointers and the request id. A 5xx says nothing internal.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError } from '../db/errors.ts';
import { AppError, ERROR_CATALOGUE, type ErrorCode, type FieldError } from '../lib/errors.ts';
import { toFieldErrors } from '../lib/validation.ts';

export interface Problem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors: FieldError[];
  requestId: string;
}

const PREFIX: Record<string, string> = { body: '', querystring: '/query', params: '/params', headers: '/headers' };

function titleOf(code: string): string {
  return (ERROR_CATALOGUE as Record<string, { title: string }>)[code]?.title ?? 'Request refused';
}

export function sendProblem(reply: FastifyReply, status: number, code: string, detail: string, errors: FieldError[] = []) {
  const problem: Problem = { status, code, title: titleOf(code), detail, errors, requestId: String(reply.request.id) };
  return reply.code(status).type('application/problem+json').send(JSON.stringify(problem));
}

/** Several problems: the umbrella code; one problem: its own code (docs/conventions.md). */
function validationProblem(reply: FastifyReply, batch: boolean, errors: FieldError[]) {
  const status = batch ? 402 : 400;
  const umbrella: ErrorCode = batch ? 'BATCH_VALIDATION_FAILED' : 'VALIDATION_FAILED';
  const code = errors.length === 1 ? errors[0]!.code : umbrella;
  const detail =
    errors.length === 1
      ? `${errors[0]!.pointer || 'the body'} ${errors[0]!.message}`
      : `${errors.length} problems found in the request`;
  return sendProblem(reply, status, code, detail, errors);
}

const isBatchRoute = (request: FastifyRequest) => request.routeOptions.config?.batch === true;

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendProblem(reply, error.status, error.code, error.message, error.errors);
    }
    if (error.validation) {
      const prefix = PREFIX[error.validationContext ?? 'body'] ?? '';
      const batch = isBatchRoute(request) && error.validationContext === 'body';
      return validationProblem(reply, batch, toFieldErrors(error.validation as never, prefix));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(reply, 413, 'PAYLOAD_TOO_LARGE', `the request body exceeds this route's limit of ${request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit} bytes`);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendProblem(reply, isBatchRoute(request) ? 402 : 400, 'MALFORMED_JSON', 'the body is not valid JSON', [
          { pointer: '', code: 'MALFORMED_JSON', message: error.message },
        ]);
    }
    if (error instanceof SyntaxError) {
      return sendProblem(reply, isBatchRoute(request) ? 402 : 400, 'MALFORMED_JSON', 'the body is not valid JSON', [
        { pointer: '', code: 'MALFORMED_JSON', message: error.message },
      ]);
    }
    if (isConnectionError(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '1');
      return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry shortly');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendProblem(reply, status, status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, 500, 'INTERNAL_ERROR', 'an internal error occurred; quote the request id when reporting it');
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, 404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`),
  );
}
