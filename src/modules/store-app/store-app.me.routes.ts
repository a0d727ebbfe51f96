// Sign-in (one-time codes, store-app.sign-in.ts) and the signed-in person (/app/me).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storeSessionOf, storeUserOf } from './store-app.principal.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { CodeBody, CodeSent, ContactBody, ContactQuery, Me, MintedToken, PersonIdParams, SessionsEnded, SignedOut, SignInSettings, StoreUserFound, TokenResponse } from './store-app.schemas.ts';
import { signOut } from './store-app.sessions.ts';
import { addIdentifier, endStoreUserSessions, exchangeCode, findStoreUser, me, mintToken, requestCode, requestIdentifierCode, type SignInContext } from './store-app.sign-in.ts';
import { audited } from '../audit/audited.ts';

const tags = ['store app'];

export const signInRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx: SignInContext = {
      db: deps.db,
      notifier: deps.notifier,
      tokens: deps.storeTokens,
      wake: () => deps.workAccepted('messages'),
    };
    // The platform's money and calendar settings travel with the person (the app formats with them).
    const settings = { currency: deps.config.currency, currencyDecimals: deps.config.currencyDecimals, locale: deps.config.locale, timezone: deps.config.timezone };
    const withSettings = <T extends object>(answer: T) => ({ ...answer, settings });
    // What the sign-in page needs before anyone signs in: the country code a local number is
    // completed with. Under /app/auth/, so limited per client address as the other sign-in routes.
    const signInSettings = { countryCode: deps.config.defaultCountryCode };
    app.get('/app/auth/settings', {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "The sign-in page's settings: the platform's country code, which the page puts before a local number (the service takes E.164 only)",
        response: { 200: SignInSettings, ...problems(429) },
      },
      handler: async () => signInSettings,
    });
    app.post('/app/auth/code', {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Send a one-time sign-in code (the answer is the same whether or not the person exists)',
        body: ContactBody,
        description: 'The code is sent after the answer, only to a phone or email some store membership (or a signed-in person) names. 503 SIGN_IN_UNAVAILABLE while no sender is configured for this kind of identifier.',
        response: { 202: CodeSent, ...problems(400, 429, 503) },
      },
      handler: async (request, reply) => reply.code(202).send(await requestCode(ctx, request.body, request.ip)),
    });

    app.post('/app/auth/token', {
      config: { auth: 'public' },
      schema: { tags, summary: 'Exchange a sign-in code for an access token', body: CodeBody, response: { 200: TokenResponse, ...problems(400, 401) } },
      handler: (request) => exchangeCode(ctx, request.body, request.ip),
    });

    app.post('/admin/store-users/token', {
      // An Idempotency-Key replay leaves the token out (src/http/idempotency.ts).
      config: { auth: 'admin', audit: 'store-user-token', secretFields: ['access_token'] },
      schema: { tags: ['admin'], summary: 'A store-user token for a person, for support work and tests', body: ContactBody, response: { 200: MintedToken, ...problems(400, 401, 404) } },
      handler: (request) => audited(deps, request, (db) => mintToken(db, deps.storeTokens.within(db), request.body), { entityId: () => request.body.phone ?? request.body.email }),
    });

    app.get('/admin/store-users', {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Find a store user by phone or email: the person who signed in with it (if anyone has) and every membership naming it',
        querystring: ContactQuery,
        response: { 200: StoreUserFound, ...problems(400, 401) },
      },
      handler: (request) => findStoreUser(deps.db, request.query),
    });

    app.post('/admin/store-users/:personId/sessions/end', {
      config: { auth: 'admin', audit: 'store-user-sessions' },
      schema: {
        tags: ['admin'],
        summary: "End every session of a store user: the person's tokens issued until now stop working at once",
        params: PersonIdParams,
        response: { 200: SessionsEnded, ...problems(401, 404) },
      },
      handler: (request) => audited(deps, request, (db) => endStoreUserSessions(db, request.params.personId)),
    });

    app.delete('/app/session', {
      config: { auth: 'store' },
      schema: { tags, summary: "Sign out: this token's session ends at once (the person's other sessions go on)", response: { 200: SignedOut, ...problems(401) } },
      handler: (request) => signOut(deps.storeTokens, storeSessionOf(request)),
    });

    app.get('/app/me', {
      config: { auth: 'store' },
      schema: { tags, summary: 'The signed-in person and their stores', response: { 200: Me, ...problems(401) } },
      handler: async (request) => withSettings(await me(deps.db, storeUserOf(request))),
    });

    app.post('/app/me/identifiers/code', {
      config: { auth: 'store' },
      schema: {
        tags,
        summary: 'Send a code to a phone or email the signed-in person wants to add',
        description: 'Proving it with POST /app/me/identifiers makes it theirs: it then signs in to this person and opens the memberships naming it.',
        body: ContactBody,
        response: { 202: CodeSent, ...problems(400, 401, 429, 503) },
      },
      handler: async (request, reply) => reply.code(202).send(await requestIdentifierCode(ctx, storeUserOf(request), request.body, request.ip)),
    });

    app.post('/app/me/identifiers', {
      config: { auth: 'store' },
      schema: {
        tags,
        summary: 'Add a proven phone or email to the signed-in person (one of each; a new one replaces theirs)',
        body: CodeBody,
        response: { 200: Me, ...problems(400, 401) },
      },
      handler: async (request) => withSettings(await addIdentifier(ctx, storeUserOf(request), request.body, request.ip)),
    });
  };
