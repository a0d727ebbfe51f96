// Console sign-in and the session (console.service.ts). The console's pages call the
// supplier and admin APIs themselves with the session's token.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { consoleSessionOf } from './console.session.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { ChooseSupplierBody, CodeSent, ConsoleMe, ConsoleSettings, ConsoleToken, EmailBody, EmailCodeBody, ModeBody, SignedOut } from './console.schemas.ts';
import { consoleStoreUserRoutes } from './console.store-users.routes.ts';
import { chooseSupplier, consoleMe, exchangeConsoleCode, requestConsoleCode, setConsoleMode, signOut, type ConsoleContext } from './console.service.ts';

const tags = ['console'];

export const consoleRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ctx: ConsoleContext = { db: deps.db, notifier: deps.notifier, tokens: deps.consoleTokens, wake: () => deps.workAccepted('messages') };

    app.post('/console/auth/code', {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "Email a one-time code to a supplier member or an operator (the answer is the same for an email nobody invited)",
        body: EmailBody,
        response: { 202: CodeSent, ...problems(400, 429, 503) },
      },
      handler: async (request, reply) => reply.code(202).send(await requestConsoleCode(ctx, request.body, request.ip)),
    });

    app.post('/console/auth/token', {
      config: { auth: 'public' },
      schema: { tags, summary: 'Exchange the code for a console session', body: EmailCodeBody, response: { 200: ConsoleToken, ...problems(400, 401, 429) } },
      handler: (request) => exchangeConsoleCode(ctx, request.body, request.ip, request.id),
    });

    app.get('/console/me', {
      config: { auth: 'console' },
      schema: { tags, summary: 'The signed-in person: operator or not, the suppliers they are a member of, and the one the session acts for', response: { 200: ConsoleMe, ...problems(401) } },
      handler: (request) => consoleMe(deps.db, consoleSessionOf(request)),
    });

    // Amounts carry the platform's currency in the console too (issue 34): the settings the shop reads from GET /app/me.
    app.get('/console/me/settings', {
      config: { auth: 'console' },
      schema: { tags, summary: "How the console shows money and dates: the platform's currency, its decimals, locale and timezone", response: { 200: ConsoleSettings, ...problems(401) } },
      handler: () => ({ currency: deps.config.currency, currencyDecimals: deps.config.currencyDecimals, locale: deps.config.locale, timezone: deps.config.timezone }),
    });

    app.put('/console/me/supplier', {
      config: { auth: 'console' },
      schema: {
        tags,
        summary: 'Choose the supplier the session acts for (one the person is a member of)',
        body: ChooseSupplierBody,
        response: { 200: ConsoleMe, ...problems(400, 401, 404) },
      },
      handler: (request) => chooseSupplier(deps.db, consoleSessionOf(request), request.body.supplierId),
    });

    app.put('/console/me/mode', {
      config: { auth: 'console' },
      schema: {
        tags,
        summary: "The test-mode switch: `test` makes the session's supplier calls work on the supplier's test twin (src/modules/sandbox), `live` on the live supplier",
        body: ModeBody,
        response: { 200: ConsoleMe, ...problems(400, 401) },
      },
      handler: (request) => setConsoleMode(deps.db, consoleSessionOf(request), request.body.mode),
    });

    app.delete('/console/session', {
      config: { auth: 'console' },
      schema: { tags, summary: 'Sign out: the session ends at once', response: { 200: SignedOut, ...problems(401) } },
      handler: (request) => signOut(deps.db, consoleSessionOf(request)),
    });

    await app.register(consoleStoreUserRoutes(deps));
  };
