import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { headerValue } from '../../lib/headers.ts';
import { isApiKeyShaped } from './principal.ts';
import { rateLimited } from '../../lib/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { login } from './auth.service.ts';
import { isLiveApiKey } from './credentials.repository.ts';
import { sha256 } from '../../lib/secrets.ts';

const LoginBody = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 255 }), clientSecret: Type.String({ minLength: 1, maxLength: 255 }) });
const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  scope: Type.String({ description: 'space-separated scopes' }),
});

export const authRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Failed logins and successful ones are counted apart (README: "Logins are limited"):
    // failures per API key and client address, so someone holding only an API key cannot
    // use up the real client's logins from elsewhere; successes per API key, which only
    // the holder of the whole credential can use up. (The limiters live on the app, built
    // by src/http/limits.ts, so the tests can read their sizes.)
    const { failures, successes } = app.loginLimiters;
    const keyOf = (apiKey: string | undefined) => (apiKey !== undefined && isApiKeyShaped(apiKey) ? apiKey : 'none');

    app.post('/login', {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange clientId and clientSecret (with x-api-key) for an access token',
        headers: Type.Object({ 'x-api-key': Type.Optional(Type.String()) }),
        body: LoginBody,
        response: { 200: TokenResponse, ...problems(400, 401, 429) },
      },
      // Limited before the secret is checked (README: "Logins are limited"): too many
      // successes with this key, or too many failures with this key from this address, and
      // the attempt is refused unread. Failures are counted per key only for a live key;
      // made-up keys share one count per address, so a stream of them keeps no state.
      onRequest: async (request) => {
        const apiKey = keyOf(headerValue(request.headers['x-api-key']));
        const succeeded = apiKey === 'none' ? undefined : successes.check(apiKey);
        if (succeeded && !succeeded.allowed) throw rateLimited(succeeded.retryAfterSeconds, 'logins with this API key');
      },
      handler: async (request) => {
        const apiKey = keyOf(headerValue(request.headers['x-api-key']));
        const known = apiKey !== 'none' && (await isLiveApiKey(deps.db, sha256(apiKey)));
        const failureKey = `${known ? apiKey : 'none'} ${request.ip}`;
        const failed = failures.check(failureKey);
        if (!failed.allowed) throw rateLimited(failed.retryAfterSeconds, 'failed logins with this API key from this address');
        try {
          const token = await login(deps.db, deps.tokens, { apiKey: known ? apiKey : undefined, ...request.body });
          successes.take(apiKey);
          return token;
        } catch (error) {
          if (error instanceof AppError && error.code === 'UNAUTHENTICATED') failures.take(failureKey);
          throw error;
        }
      },
    });
  };

