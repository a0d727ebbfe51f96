import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { Brand, Category, CategoryInput, CategoryListQuery, Product, ProductListQuery, SubcategoryInput } from './catalog.schemas.ts';
import { getBrand, getCategory, getProduct, listCategories, listProducts, upsertCategory } from './catalog.service.ts';
import { audited } from '../audit/audited.ts';

const read = { auth: 'supplier', scope: 'supplier/catalog.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/catalog.write', audit: 'category' } as const;
const tags = ['catalog'];

export const catalogRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
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
        handler: (request) => audited(deps, request, (db) => upsertCategory(db, supplierOf(request).supplierId, request.body, deps.config.publicUrl)),
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
        handler: (request) => audited(deps, request, (db) => upsertCategory(db, supplierOf(request).supplierId, request.body, deps.config.publicUrl)),
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

    app.get('/product/:code', {
      config: read,
      schema: { tags, summary: 'One product', params: CodeParams, response: { 200: Product, ...problems(401, 403, 404) } },
      handler: (request) => getProduct(deps.db, supplierOf(request).supplierId, request.params.code, deps.config.publicUrl),
    });

    app.get('/product', {
      config: read,
      schema: {
        tags,
        summary: 'Products by code, each as GET /product/{code} answers it; search in code and name, filter by state, brand and category',
        querystring: ProductListQuery,
        response: { 200: Page(Product), ...problems(400, 401, 403) },
      },
      handler: (request) => listProducts(deps.db, supplierOf(request).supplierId, request.query, deps.config.publicUrl),
    });
  };
