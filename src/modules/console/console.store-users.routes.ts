// The console's one route over a store's buyers: an edit in one step. Listing, adding and
// removing are the supplier API's own GET /store/{code} and POST /store/{code}/add/user and
// /remove/user, which the console calls with its session.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { supplierOf } from '../auth/principal.ts';
import { audited } from '../audit/audited.ts';
import { CodeParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { StoreUsers } from '../stores/stores.schemas.ts';
import { ReplaceStoreUserBody, replaceStoreUser } from './console.store-users.ts';

export const consoleStoreUserRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.put('/console/stores/:code/user', {
      config: { auth: 'supplier', scope: 'supplier/store.write', audit: 'store' },
      schema: {
        tags: ['console'],
        summary: "Edit one of the store's buyers: the one named by `current` is replaced by `user`, in one transaction",
        description:
          'The same rules as POST /store/{code}/remove/user then /add/user (a phone or an email, emails in lower case), applied together: the edited buyer never goes missing halfway. ' +
          'A buyer the store does not list answers 404 on `/current`.',
        params: CodeParams,
        body: ReplaceStoreUserBody,
        response: { 200: StoreUsers, ...problems(400, 401, 403, 404) },
      },
      handler: (request) =>
        audited(deps, request, (db) => replaceStoreUser(db, supplierOf(request).supplierId, request.params.code, request.body.current, request.body.user)),
    });
  };
