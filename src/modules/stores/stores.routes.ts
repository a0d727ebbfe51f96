import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { PricedCart } from '../pricing/pricing.schemas.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
import { CartBody } from '../store-app/store-app.schemas.ts';
import { Store, StoreListQuery, StoreSummary, StoreUsers, UsersBody } from './stores.schemas.ts';
import { addUsers, getStore, listStores, priceCartAsStore, removeUsers } from './stores.service.ts';
import { audited } from '../audit/audited.ts';

const tags = ['stores'];

export const storeRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/store/:code', {
      config: { auth: 'supplier', scope: 'supplier/store.read' },
      schema: { tags, summary: 'A store with its links, settings and users', params: CodeParams, response: { 200: Store, ...problems(401, 403, 404) } },
      handler: (request) => getStore(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.get('/store', {
      config: { auth: 'supplier', scope: 'supplier/store.read' },
      schema: {
        tags,
        summary: 'Stores by code, each as GET /store/{code} answers it without its users; search in code and name',
        querystring: StoreListQuery,
        response: { 200: Page(StoreSummary), ...problems(400, 401, 403) },
      },
      handler: (request) => listStores(deps.db, supplierOf(request).supplierId, request.query),
    });

    // A POST that writes nothing: a preview, so nothing to audit.
    app.post('/store/:code/cart', {
      config: { auth: 'supplier', scope: 'supplier/store.read', audit: false },
      schema: {
        tags,
        summary: "Price a cart as this store sees it: the store app's own pricing (POST /app/stores/{storeId}/cart); changes nothing",
        params: CodeParams,
        body: CartBody,
        response: { 200: PricedCart, ...problems(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const { supplierId } = supplierOf(request);
        return priceCartAsStore(storeAppContext(deps), supplierId, request.params.code, request.body, await deps.clocks.nowFor(supplierId));
      },
    });

    for (const [verb, fn] of [
      ['add', addUsers],
      ['remove', removeUsers],
    ] as const) {
      app.post(`/store/:code/${verb}/user`, {
        config: { auth: 'supplier', scope: 'supplier/store.write', audit: 'store' },
        schema: {
          tags,
          summary: verb === 'add' ? 'Give people (by phone or email) access to the store' : 'Take people off the store',
          params: CodeParams,
          body: UsersBody,
          response: { 200: StoreUsers, ...problems(400, 401, 403, 404, 409) },
        },
        handler: (request) => audited(deps, request, (db) => fn(db, supplierOf(request).supplierId, request.params.code, request.body.users)),
      });
    }
  };
