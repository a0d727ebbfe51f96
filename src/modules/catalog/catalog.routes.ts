import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { supplierOf } from '../../http/auth.ts';
import { BatchAccepted, CodeParams, Page, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { batchLimits, submitBatch } from '../batch/batch.service.ts';
import { brandBatchKind, productBatchKind } from './catalog.batch.ts';
import { Brand, BrandBatchBody, Category, CategoryInput, CategoryListQuery, Product, ProductBatchBody, SubcategoryInput } from './catalog.schemas.ts';
import { getBrand, getCategory, getProduct, listCategories, upsertCategory } from './catalog.service.ts';

const read = { auth: 'supplier', scope: 'supplier/catalog.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/catalog.write' } as const;
const bulk = { auth: 'supplier', scope: 'supplier/catalog.bulkwrite', batch: true } as const;
const tags = ['catalog'];
const accepted = { 202: BatchAccepted, ...problems(401, 402, 403, 409, 413, 415) };
/** Requests to POST /batch/brand that sent a bare array (their body was wrapped as {upsert}). */
const bareArrays = new WeakSet<FastifyRequest>();

export const catalogRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/batch/brand', {
      config: bulk,
      schema: { tags, summary: 'Upsert brands in bulk (asynchronous)', body: BrandBatchBody, response: accepted },
      // A bare array of brands is the upsert list (endpoints.md).
      preValidation: async (request) => {
        if (!Array.isArray(request.body)) return;
        request.body = { upsert: request.body };
        bareArrays.add(request);
      },
      // Pointers lead into the body as it was sent: in a bare array the second brand is
      // /1, not /upsert/1. Rethrown, the error goes on to the app's one error handler.
      errorHandler: (error, request) => {
        if (bareArrays.has(request) && error.validationContext === 'body') {
          for (const e of error.validation ?? []) e.instancePath = e.instancePath.replace(/^\/upsert(?=\/|$)/, '');
        }
        throw error;
      },
      handler: async (request, reply) =>
        reply
          .code(202)
          .send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, brandBatchKind, request.body, deps.workAccepted)),
    });

    app.get('/brand/:code', {
      config: read,
      schema: { tags, summary: 'One brand', params: CodeParams, response: { 200: Brand, ...problems(401, 403, 404) } },
      handler: (request) => getBrand(deps.db, supplierOf(request).supplierId, request.params.code, deps.config.publicUrl),
    });

    for (const method of ['PUT', 'POST'] as const) {
      app.route({
        method,
        url: '/category',
        config: write,
        schema: { tags, summary: 'upsertCategory: create or update a level-1 category', body: CategoryInput, response: { 200: Category, ...problems(400, 401, 403, 409) } },
        handler: (request) => upsertCategory(deps.db, supplierOf(request).supplierId, request.body, deps.config.publicUrl),
      });
      app.route({
        method,
        url: '/subcategory',
        config: write,
        schema: {
          tags,
          summary: 'upsertSubcategory: create or update a level-2 category under an existing level-1 one',
          body: SubcategoryInput,
          response: { 200: Category, ...problems(400, 401, 403, 409) },
        },
        handler: (request) => upsertCategory(deps.db, supplierOf(request).supplierId, request.body, deps.config.publicUrl),
      });
    }

    app.get('/category', {
      config: read,
      schema: {
        tags,
        summary: 'Level-1 categories with their subcategories, by weight then code',
        querystring: CategoryListQuery,
        response: { 200: Page(Category), ...problems(400, 401, 403) },
      },
      handler: (request) => listCategories(deps.db, supplierOf(request).supplierId, request.query, deps.config.publicUrl),
    });

    app.get('/category/:code', {
      config: read,
      schema: { tags, summary: 'One category or subcategory', params: CodeParams, response: { 200: Category, ...problems(401, 403, 404) } },
      handler: (request) => getCategory(deps.db, supplierOf(request).supplierId, request.params.code, deps.config.publicUrl),
    });

    app.post('/batch/product', {
      config: bulk,
      schema: { tags, summary: 'Upsert products in bulk (asynchronous)', body: ProductBatchBody, response: accepted },
      handler: async (request, reply) =>
        reply
          .code(202)
          .send(await submitBatch(deps.db, batchLimits(deps.config), supplierOf(request).supplierId, productBatchKind, request.body, deps.workAccepted)),
    });

    app.get('/product/:code', {
      config: read,
      schema: { tags, summary: 'One product', params: CodeParams, response: { 200: Product, ...problems(401, 403, 404) } },
      handler: (request) => getProduct(deps.db, supplierOf(request).supplierId, request.params.code, deps.config.publicUrl),
    });
  };
