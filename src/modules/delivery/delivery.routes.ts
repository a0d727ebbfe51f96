// Delivery zones for suppliers (README.md): thin routes over delivery.service.ts. The
// store app's `GET /app/stores/{storeId}/delivery-options` is in store-app.routes.ts, behind
// the membership guard; it answers what `GET /store/{code}/delivery-options` answers here.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { audited } from '../audit/audited.ts';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, Page, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { DeliveryOptions, DeliveryZone, DeliveryZoneBody, DeliveryZoneListQuery } from './delivery.schemas.ts';
import { getZone, listZones, putZone, storeOptions } from './delivery.service.ts';

const tags = ['delivery zones'];
// A zone is part of a supplier's store set-up: the stores' scopes (delivery.batch.ts says why).
const read = { auth: 'supplier', scope: 'supplier/store.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/store.write', audit: 'deliveryzone' } as const;

export const deliveryRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.put('/deliveryzone/:code', {
      config: write,
      schema: {
        tags,
        summary: 'Create or replace a delivery zone: its weekdays with their cut-offs, exceptions and minimum order',
        description:
          'The zone is written whole: `exceptions` left out means none, `cutoffMode` left out `strict`, `minimumOrder` left out none. ' +
          'A delivery on a date closes at `cutoff.time` in the zone\'s timezone, `cutoff.daysBefore` days earlier.',
        params: CodeParams,
        body: DeliveryZoneBody,
        response: { 200: DeliveryZone, ...problems(400, 401, 403) },
      },
      handler: (request) => audited(deps, request, (db) => putZone(db, supplierOf(request).supplierId, request.params.code, request.body)),
    });

    app.get('/deliveryzone/:code', {
      config: read,
      schema: { tags, summary: 'A delivery zone', params: CodeParams, response: { 200: DeliveryZone, ...problems(401, 403, 404) } },
      handler: (request) => getZone(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.get('/deliveryzone', {
      config: read,
      schema: {
        tags,
        summary: 'Delivery zones by code; search in code and name',
        querystring: DeliveryZoneListQuery,
        response: { 200: Page(DeliveryZone), ...problems(400, 401, 403) },
      },
      handler: (request) => listZones(deps.db, supplierOf(request).supplierId, request.query),
    });

    app.get('/store/:code/delivery-options', {
      config: read,
      schema: {
        tags,
        summary: "The store's next valid delivery dates with their cut-offs, as its store app sees them (none without a zone)",
        params: CodeParams,
        response: { 200: DeliveryOptions, ...problems(401, 403, 404) },
      },
      handler: async (request) => {
        const { supplierId } = supplierOf(request);
        // The supplier's time: a test twin's moved clock moves its cut-offs too (src/modules/sandbox).
        return storeOptions(deps.db, supplierId, request.params.code, await deps.clocks.nowFor(supplierId));
      },
    });
  };
