/** One place that turns anything thrown into the v2 error envelope. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isApiError } from '../errors.js';

function fromFastify(err: FastifyError): ApiError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported Media Type: send application/json' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST_INVALID_JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BAD_REQUEST', { message: 'Bad Request: Content-Length does not match the body' });
    default:
      break;
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) return new ApiError('BAD_REQUEST_INVALID_JSON');
  if (err.validation) return new ApiError('BAD_REQUEST', { details: err.validation });
  if (err.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE');
  if (err.statusCode === 404) return new ApiError('NOT_FOUND');
  if (err.statusCode === 405) return new ApiError('METHOD_NOT_ALLOWED');
  if (err.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  return undefined;
}

/**
 * Errors Fastify raises before routing (a path with broken percent-encoding, `/v2/scrape/%ff`):
 * they never reach the error handler, so they get the envelope here.
 */
export function frameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    err.code === 'FST_ERR_BAD_URL'
      ? new ApiError('BAD_REQUEST', { message: 'Bad Request: the request path is not valid percent-encoded text' })
      : new ApiError('BAD_REQUEST');
  void reply.status(apiError.status).send(apiError.toBody());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    let apiError = isApiError(err) ? err : fromFastify(err);
    if (!apiError) {
      // Never leak internals; the request id lets an operator find the stack in the log.
      req.log.error({ err }, 'unhandled error');
      apiError = new ApiError('INTERNAL', {
        message: `An unexpected error occurred. Please contact support if the issue persists. Your exception ID is ${req.id}`,
      });
    } else if (apiError.status >= 500) {
      req.log.warn({ code: apiError.code, msg: apiError.message }, 'request failed');
    }
    void reply.status(apiError.status).headers(apiError.headers).send(apiError.toBody());
  });
  app.setNotFoundHandler((_req, reply) => {
    void reply.status(404).send(new ApiError('NOT_FOUND').toBody());
  });
}
