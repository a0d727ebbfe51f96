// Answers are written by Fastify's own serializer compiler (fast-json-stringify), each
// response schema compiled once per process rather than once per app: the test suite builds
// hundreds of apps in one process, and compiling the 150-odd response schemas was most of
// an app's start (about 190 ms of 290 ms here). Sound because a serializer
// depends only on its schema and the app's shared schemas (Problem, src/http/openapi.ts),
// which are the same module objects in every app of a process; one app (production) sees
// no difference.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

const compiled = new WeakMap<object, (doc: unknown) => string>();
const fastJsonStringify = SerializerSelector();

export const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = fastJsonStringify(externalSchemas, options);
  return (route) => {
    const schema = route.schema as object;
    let serialize = compiled.get(schema);
    if (!serialize) compiled.set(schema, (serialize = compile(route)));
    return serialize;
  };
};
