// Credit, invoices and payments (README.md): thin routes over credit.service.ts. The
// batches (POST /batch/invoice, /batch/payment) are declared in credit.batch.ts; a store's
// `credit` in POST /batch/store is staged with the store (../stores/stores.batch.ts). The
// store app's account is here too, behind the store app's one membership guard.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { audited } from '../audit/audited.ts';
import { storeUserOf } from '../store-app/store-app.principal.ts';
import { supplierOf } from '../auth/principal.ts';
import { CodeParams, IdParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { todayIn } from '../../lib/clock.ts';
import { Order } from '../orders/orders.schemas.ts';
import { storeAppContext } from '../store-app/store-app.context.ts';
import { requireMembership } from '../store-app/store-app.membership.ts';
import { StoreParams } from '../store-app/store-app.schemas.ts';
import { Account, Aging, AgingQuery, CreditBody, StoreCredit } from './credit.schemas.ts';
import { accountOf, aging, getCredit, putCredit, releaseOrder, storeAccount } from './credit.service.ts';

const tags = ['credit'];
// A store's terms and account are part of its set-up: the stores' scopes, so no scope list
// changes (README.md, "Scopes"). Releasing a held order is an order move: the orders' scope.
const read = { auth: 'supplier', scope: 'supplier/store.read' } as const;
const write = { auth: 'supplier', scope: 'supplier/store.write', audit: 'store-credit' } as const;
const release = { auth: 'supplier', scope: 'supplier/order.write', audit: 'order' } as const;

export const creditRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    /** Today in the platform's timezone by the app's clock: the day invoices are overdue against. */
    const today = () => todayIn(deps.clock, deps.config.timezone);

    app.put('/store/:code/credit', {
      config: write,
      schema: {
        tags,
        summary: "Set a store's payment methods and credit terms",
        description:
          'Written whole: `limit` left out is 0, `termDays` and `holdWhenOverdueDays` left out none, `allowOverLimitWithApproval` left out false. ' +
          "The first payment method is an order's default.",
        params: CodeParams,
        body: CreditBody,
        response: { 200: StoreCredit, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => audited(deps, request, (db) => putCredit(db, supplierOf(request).supplierId, request.params.code, request.body)),
    });

    app.get('/store/:code/credit', {
      config: read,
      schema: {
        tags,
        summary: "A store's payment methods and credit terms (none: no methods, limit 0, updatedAt null)",
        params: CodeParams,
        response: { 200: StoreCredit, ...problems(401, 403, 404) },
      },
      handler: (request) => getCredit(deps.db, supplierOf(request).supplierId, request.params.code),
    });

    app.get('/store/:code/account', {
      config: read,
      schema: { tags, summary: "A store's account, as its store app shows it: credit, used, pending, overdue, available, open invoices, recent payments", params: CodeParams, response: { 200: Account, ...problems(401, 403, 404) } },
      handler: (request) => storeAccount(deps.db, supplierOf(request).supplierId, request.params.code, today()),
    });

    app.get('/account/aging', {
      config: read,
      schema: {
        tags,
        summary: 'Open invoice balances by days past due (current, 1–30, 31–60, over 60), per store and in total',
        querystring: AgingQuery,
        response: { 200: Aging, ...problems(400, 401, 403) },
      },
      handler: (request) => aging(deps.db, supplierOf(request).supplierId, today(), request.query),
    });

    app.put('/order/:id/release', {
      config: release,
      schema: {
        tags: ['orders'],
        summary: 'Release an order on credit hold: it stays PENDING and now takes the store\'s credit (cancel it instead to refuse it)',
        params: IdParams,
        response: { 200: Order, ...problems(400, 401, 403, 404, 409) },
      },
      handler: async (request) => {
        const { supplierId } = supplierOf(request);
        // The supplier's time: a test twin's clock may have been moved (src/modules/sandbox).
        const at = (await deps.clocks.nowFor(supplierId)).toISOString();
        return audited(deps, request, (db) => releaseOrder(db, supplierId, request.params.id, at));
      },
    });

    app.get('/app/stores/:storeId/account', {
      config: { auth: 'store' },
      schema: {
        tags: ['store app'],
        summary: "My account (\"Mi cuenta\"): the store's credit, used, pending, overdue and available, its open invoices and recent payments",
        params: StoreParams,
        response: { 200: Account, ...problems(400, 401, 404) },
      },
      handler: async (request) => {
        const context = storeAppContext(deps);
        const { store } = await requireMembership(context, storeUserOf(request), request.params.storeId);
        return accountOf(deps.db, store.id, today());
      },
    });
  };
