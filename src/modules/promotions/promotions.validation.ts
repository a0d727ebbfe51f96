// How a promotion body's refusal names its problems, on the PUT routes and POST /batch/promotion alike.
import type { FastifyError, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';

function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const token of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

/**
 * The one product of a simple discount or an individual bonus is an object or a one-item
 * array (a union), and Ajv reports the failure of both branches. Keep only the failures of
 * the branch the value was sent as, so the pointers and codes name the real problem.
 * Rethrown, the error goes on to the app's one error handler.
 */
export function keepSentBranch(error: FastifyError, request: FastifyRequest): never {
  if (error.validationContext === 'body' && error.validation) {
    const errors = error.validation as unknown as ErrorObject[];
    const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
    const otherBranch = (e: ErrorObject) => {
      if (!unions.has(e.instancePath) || e.keyword !== 'type') return false;
      const value = valueAt(request.body, e.instancePath);
      const expected = (e.params as { type: string }).type;
      return (expected === 'array' && value !== null && typeof value === 'object' && !Array.isArray(value)) || (expected === 'object' && Array.isArray(value));
    };
    const kept = errors.filter((e) => !otherBranch(e));
    const explained = (path: string) => kept.some((e) => e.keyword !== 'anyOf' && (e.instancePath === path || e.instancePath.startsWith(`${path}/`)));
    const pruned = kept.filter((e) => !(e.keyword === 'anyOf' && explained(e.instancePath)));
    errors.splice(0, errors.length, ...pruned);
  }
  throw error;
}
