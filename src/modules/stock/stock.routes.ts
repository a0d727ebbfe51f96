import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { StockRulePage, StockRuleQuery } from './stock.schemas.ts';
import { listStockRules } from './stock.service.ts';

export const stockRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Read with grouper.read, the scope of GET /grouper/{code}/stock: the rules are the
    // stock grouper's, and there is no stock read scope (docs/conventions.md).
    app.get('/grouper/:code/stock/rules', {
      config: { auth: 'supplier', scope: 'supplier/grouper.read' },
      schema: {
        tags: ['stock'],
        summary: "A stock grouper's availability rules by product code, then units; search in product code and name",
        params: CodeParams,
        querystring: StockRuleQuery,
        response: { 200: StockRulePage, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => listStockRules(deps.db, supplierOf(request).supplierId, request.params.code, request.query),
    });
  };
