// A batch body checked outside a request, exactly as a kind's POST route checks it: the
// app's validator (src/lib/validation.ts: no coercion, unknown fields dropped, defaults
// filled in, nulls of optional fields dropped, no NUL or lone surrogate) on the kind's
// declared body schema, then the kind's own refinement of the problems (its route's
// errorHandler, e.g. a promotion's union keeps the branch that was sent). The file
// imports (src/modules/imports) check their items with it before submitting them through
// submitBatch, so an item refused by the route is refused by an import with the same
// pointer, code and words.
import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyRequest } from 'fastify';
import { toFieldErrors, validatorCompiler } from '../../lib/validation.ts';
import type { FieldError } from '../../lib/errors.ts';
import type { BatchKind } from './batch.kinds.ts';

type Check = ((body: unknown) => unknown) & { errors?: ErrorObject[] | null };
const compiled = new WeakMap<BatchKind, Check>();

/**
 * Validates (and, as the route does, normalises in place) a body of the kind: no problem,
 * an empty list; otherwise each problem with its pointer into the body.
 */
export function validateBatchBody(kind: BatchKind, body: unknown): FieldError[] {
  let check = compiled.get(kind);
  if (!check) {
    check = validatorCompiler({ schema: kind.body, method: 'POST', url: kind.endpoint, httpPart: 'body' }) as Check;
    compiled.set(kind, check);
  }
  const result = check(body);
  if (result === true || (typeof result === 'object' && result !== null)) return [];
  const error = Object.assign(new Error('body validation'), { validation: [...(check.errors ?? [])], validationContext: 'body' as const });
  if (kind.route.errorHandler) {
    try {
      kind.route.errorHandler(error as unknown as FastifyError, { body } as FastifyRequest);
    } catch {
      // Every errorHandler rethrows: the refined problems are in error.validation.
    }
  }
  return toFieldErrors(error.validation, '');
}
