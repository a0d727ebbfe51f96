import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { IdParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { SupplierIdParams } from '../admin/admin.schemas.ts';
import { cancelCodes, replaceCancelCodes } from './cancel-codes.ts';
import {
  CancelBody,
  CancelCodes,
  CancelCodesBody,
  ConfirmBody,
  DeliverBody,
  Order,
  OrderListQuery,
  ReturnBody,
} from './orders.schemas.ts';
import { getOrder, listOrders, operate, type Operation } from './orders.service.ts';
import { audited } from '../audit/audited.ts';

const tags = ['orders'];
const read = { auth: 'supplier', scope: 'supplier/order.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/order.write', audit: 'order' } as const;

const operations = [
  { op: 'confirm', body: ConfirmBody, summary: 'Confirm a PENDING order (optional deliveryDate)' },
  { op: 'deliver', body: DeliverBody, summary: 'Deliver a CONFIRMED order, completely or some quantities' },
  { op: 'return', body: ReturnBody, summary: 'Register a total or partial return of a DELIVERED order' },
  { op: 'cancel', body: CancelBody, summary: 'Cancel a PENDING or CONFIRMED order with a supplier cancellation code' },
] as const;

export const orderRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/order/:id', {
      config: read,
      schema: { tags, summary: 'One order by its platform id', params: IdParams, response: { 200: Order, ...problems(400, 401, 403, 404) } },
      handler: (request) => getOrder(deps.db, supplierOf(request).supplierId, request.params.id, deps.config.currencyDecimals),
    });

    app.get('/order', {
      config: read,
      schema: { tags, summary: 'Orders, newest first', querystring: OrderListQuery, response: { 200: Page(Order), ...problems(400, 401, 403) } },
      handler: (request) => listOrders(deps.db, supplierOf(request).supplierId, request.query, deps.config.timezone, deps.config.currencyDecimals),
    });

    for (const { op, body, summary } of operations) {
      for (const method of ['PUT', 'POST'] as const) {
        app.route({
          method,
          url: `/order/:id/${op}`,
          config: write,
          schema: { tags, summary, params: IdParams, body, response: { 200: Order, ...problems(400, 401, 403, 404, 409) } },
          handler: async (request) => {
            const { supplierId } = supplierOf(request);
            // The supplier's time: a test twin's clock may have been moved (src/modules/sandbox).
            const at = (await deps.clocks.nowFor(supplierId)).toISOString();
            return audited(deps, request, (db) => operate(db, supplierId, { ...(request.body as object), op, id: request.params.id } as Operation, at, deps.config.currencyDecimals));
          },
        });
      }
    }

    app.get('/supplier/cancelcodes', {
      config: read,
      schema: { tags, summary: "The supplier's cancellation codes", response: { 200: CancelCodes, ...problems(401, 403) } },
      handler: async (request) => [...(await cancelCodes(deps.db, supplierOf(request).supplierId))],
    });

    app.put('/admin/suppliers/:supplierId/cancel-codes', {
      config: { auth: 'admin', audit: 'cancel-codes' },
      schema: { tags: ['admin'], summary: "Replace a supplier's cancellation codes", params: SupplierIdParams, body: CancelCodesBody, response: { 200: CancelCodes, ...problems(400, 401, 404) } },
      handler: (request) => audited(deps, request, (db) => replaceCancelCodes(db, request.params.supplierId, request.body)),
    });
  };
