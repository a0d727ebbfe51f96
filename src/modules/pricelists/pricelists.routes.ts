import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import {
  CreatePriceList,
  PriceEntryPage,
  PriceEntryQuery,
  PriceList,
  PriceListListQuery,
  PriceListPage,
  PriceListStatusBody,
  PriceListSummary,
} from './pricelists.schemas.ts';
import { createPriceList, getPriceList, listPriceEntries, listPriceLists, setPriceListStatus } from './pricelists.service.ts';
import { audited } from '../audit/audited.ts';

const tags = ['price lists'];

export const priceListRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/pricelist', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.write', audit: 'pricelist' },
      schema: {
        tags,
        summary: 'Create a price list (an existing code answers 404 ALREADY_EXISTS)',
        body: CreatePriceList,
        response: { 200: PriceList, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => createPriceList(db, supplierOf(request).supplierId, request.body)),
    });

    app.get('/pricelist/:code', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.read' },
      schema: { tags, summary: 'A price list with its prices and stores', params: CodeParams, response: { 200: PriceList, ...problems(401, 403, 404) } },
      handler: (request) => getPriceList(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.get('/pricelist', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.read' },
      schema: {
        tags,
        summary: 'Price lists by code, without their prices (see /pricelist/{code}/entries); search in code and name',
        querystring: PriceListListQuery,
        response: { 200: PriceListPage, ...problems(400, 401, 403) },
      },
      handler: (request) => listPriceLists(deps.db, supplierOf(request).supplierId, request.query),
    });

    app.get('/pricelist/:code/entries', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.read' },
      schema: {
        tags,
        summary: "A price list's prices by product code, then units; by page, or after a cursor (`next`) at the same cost at any depth",
        params: CodeParams,
        querystring: PriceEntryQuery,
        response: { 200: PriceEntryPage, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => listPriceEntries(deps.db, supplierOf(request).supplierId, request.params.code, request.query),
    });

    app.put('/pricelist/:code/status', {
      config: { auth: 'supplier', scope: 'supplier/pricelist.write', audit: 'pricelist' },
      schema: {
        tags,
        summary: 'Enable or disable a price list',
        params: CodeParams,
        body: PriceListStatusBody,
        response: { 200: PriceListSummary, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => audited(deps, request, (db) => setPriceListStatus(db, supplierOf(request).supplierId, request.params.code, request.body.enabled)),
    });
  };
