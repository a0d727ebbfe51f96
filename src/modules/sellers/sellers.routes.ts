// Sellers' routes (README.md): the supplier's (keyed by internalCode, under the store
// scopes: a console member with them adds sellers too), and the store side's: the store's
// setting to confirm its sellers' orders itself, and those orders waiting for it. Thin:
// parse (the schema), call a service, reply.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { storeUserOf } from '../store-app/store-app.principal.ts';
import { supplierOf } from '../auth/principal.ts';
import { audited } from '../audit/audited.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
import { requireBuyerAccess, requireMembership } from '../store-app/store-app.membership.ts';
import { StoreParams } from '../store-app/store-app.schemas.ts';
import { Accepted, Proposal, ProposalList, ProposalParams, Seller, SellerBody, SellerListQuery, SellerPage, StoreSellerSettings } from './sellers.schemas.ts';
import { acceptProposal, declineProposal, getSeller, listProposals, listSellers, putSeller, setStoreSettings, storeSettings } from './sellers.service.ts';

const read = { auth: 'supplier', scope: 'supplier/store.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/store.write', audit: 'seller' } as const;
const tags = ['sellers'];
const appTags = ['store app'];

export const sellerRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.put('/seller/:code', {
      config: write,
      schema: {
        tags,
        summary: "Create or replace a seller: a supplier's person who orders for the stores listed (they sign in to the store app with the phone or email)",
        params: CodeParams,
        body: SellerBody,
        response: { 200: Seller, ...problems(400, 401, 403, 413, 415) },
      },
      handler: (request) => audited(deps, request, (db) => putSeller(db, supplierOf(request).supplierId, request.params.code, request.body)),
    });

    app.get('/seller/:code', {
      config: read,
      schema: { tags, summary: 'One seller with the stores they serve', params: CodeParams, response: { 200: Seller, ...problems(401, 403, 404) } },
      handler: (request) => getSeller(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.get('/seller', {
      config: read,
      schema: { tags, summary: 'Sellers by code; search in code and name; storeInternalCode: those serving a store', querystring: SellerListQuery, response: { 200: SellerPage, ...problems(400, 401, 403) } },
      handler: (request) => listSellers(deps.db, supplierOf(request).supplierId, request.query),
    });

    // The store's side: only its own users decide (requireMembership); a seller reads the proposals as a buyer would.
    const ctx = () => storeAppContext(deps);
    const member = (request: FastifyRequest<{ Params: { storeId: number } }>, context = ctx()) => requireMembership(context, storeUserOf(request), request.params.storeId);

    app.get('/app/stores/:storeId/seller-settings', {
      config: { auth: 'store' },
      schema: { tags: appTags, summary: "Whether the store confirms its sellers' orders itself", params: StoreParams, response: { 200: StoreSellerSettings, ...problems(400, 401, 404) } },
      handler: async (request) => storeSettings(deps.db, await member(request)),
    });

    app.put('/app/stores/:storeId/seller-settings', {
      config: { auth: 'store' },
      schema: {
        tags: appTags,
        summary: "Set whether the store confirms its sellers' orders itself (only the store's users)",
        params: StoreParams,
        body: StoreSellerSettings,
        response: { 200: StoreSellerSettings, ...problems(400, 401, 404) },
      },
      handler: async (request) => setStoreSettings(deps.db, await member(request), request.body),
    });

    app.get('/app/stores/:storeId/seller-proposals', {
      config: { auth: 'store' },
      schema: { tags: appTags, summary: "Sellers' orders kept for the store's confirmation, newest first (the last 100)", params: StoreParams, response: { 200: ProposalList, ...problems(400, 401, 404) } },
      handler: async (request) => {
        const context = ctx();
        return listProposals(deps.db, await requireBuyerAccess(context, storeUserOf(request), request.params.storeId));
      },
    });

    app.post('/app/stores/:storeId/seller-proposals/:proposalId/accept', {
      config: { auth: 'store', keepsStoreCache: true },
      schema: {
        tags: appTags,
        summary: "Accept a seller's order: it is placed now, priced as today, as the store's order placed by that seller (refused whole as any order; it then waits again)",
        params: ProposalParams,
        response: { 200: Accepted, ...problems(400, 401, 404, 409) },
      },
      handler: async (request) => {
        const context = ctx();
        const store = await member(request, context);
        const at = (await deps.clocks.nowFor(store.store.supplier_id)).toISOString();
        return acceptProposal(context, storeUserOf(request), store, request.params.proposalId, at);
      },
    });

    app.post('/app/stores/:storeId/seller-proposals/:proposalId/decline', {
      config: { auth: 'store', keepsStoreCache: true },
      schema: { tags: appTags, summary: "Decline a seller's order: nothing is placed", params: ProposalParams, response: { 200: Proposal, ...problems(400, 401, 404, 409) } },
      handler: async (request) => declineProposal(deps.db, await member(request), request.params.proposalId),
    });
  };
