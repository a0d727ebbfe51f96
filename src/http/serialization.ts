// Answers are written by Fastify's own serializer compiler (fast-json-stringify), each
// response schema compiled once per process rather than once per app: the test suite builds
// hundreds of apps in one process, and compiling the 150-odd response schemas was most of
// an app's start (about 190 ms of 290 ms here). Sound because a serializer
// depends only on its schema and the app's shared schemas (Problem, src/http/openapi.ts),
// which are the same module objects in every app of a process; one app (production) sees
// no difference.
//
// fast-json-stringify picks an answer's `anyOf` branch with an Ajv of its own, which knew
// only ajv-formats' formats: compiling an answer that names `calendar-date` (a delivery
// zone's exceptions, an order's delivery date) printed "unknown format ... ignored" on the
// process's stderr, outside its JSON log, and picked the branch without the check. It is
// given the validator's formats (FORMATS, src/lib/validation.ts); ajv-formats, which it adds
// after them, keeps its own `date` and `date-time` there (looser than ours, and met by
// every date and instant the database answers). test/unit/serialization.test.ts holds it.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { FORMATS } from '../lib/validation.ts';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

const compiled = new WeakMap<object, (doc: unknown) => string>();
const fastJsonStringify = SerializerSelector();

export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = fastJsonStringify(externalSchemas, { ...options, ajv: { ...options?.ajv, formats: { ...options?.ajv?.formats, ...FORMATS } } });
  return (route) => {
    const schema = route.schema as object;
    let serialize = compiled.get(schema);
    if (!serialize) compiled.set(schema, (serialize = compile(route)));
    return serialize;
  };
};
