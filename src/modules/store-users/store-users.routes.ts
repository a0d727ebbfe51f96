import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { storeUserOf } from '../../http/auth.ts';
import { Nullable, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { Email, Phone } from '../stores/stores.schemas.ts';
import { exchangeCode, me, mintToken, requestCode } from './store-users.service.ts';

const Contact = { phone: Type.Optional(Phone()), email: Type.Optional(Email()) };
const ContactBody = Type.Object(Contact, { description: 'a phone (E.164) or an email' });
const CodeBody = Type.Object({ ...Contact, code: Type.String({ pattern: '^[0-9]{6}$' }) });
const TokenResponse = Type.Object({ access_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer() });
const Me = Type.Object({
  user: Type.Object({ phone: Nullable(Type.String()), email: Nullable(Type.String()), name: Nullable(Type.String()) }),
  stores: Type.Array(
    Type.Object({
      id: Type.Integer({ description: "the platform's id of the store" }),
      internalCode: Type.String(),
      name: Type.String(),
      supplier: Type.Object({ code: Type.String(), name: Type.String() }),
      enabled: Type.Boolean(),
    }),
  ),
});
const tags = ['store app'];

export const storeUserRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post('/app/auth/code', {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Send a one-time sign-in code (the answer is the same whether or not the person exists)',
        body: ContactBody,
        response: { 202: Type.Object({ expiresIn: Type.Integer() }), ...problems(400, 429) },
      },
      handler: async (request, reply) => reply.code(202).send(await requestCode(deps.db, deps.notifier, request.body)),
    });

    app.post('/app/auth/token', {
      config: { auth: 'public' },
      schema: { tags, summary: 'Exchange a sign-in code for an access token', body: CodeBody, response: { 200: TokenResponse, ...problems(400, 401) } },
      handler: (request) => exchangeCode(deps.db, deps.storeTokens, request.body),
    });

    app.post('/admin/store-users/token', {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], summary: 'A store-user token for a person, for support work and tests', body: ContactBody, response: { 200: TokenResponse, ...problems(400, 401, 404) } },
      handler: (request) => mintToken(deps.db, deps.storeTokens, request.body),
    });

    app.get('/app/me', {
      config: { auth: 'store' },
      schema: { tags, summary: 'The signed-in person and their stores', response: { 200: Me, ...problems(401) } },
      handler: (request) => me(deps.db, storeUserOf(request)),
    });
  };
