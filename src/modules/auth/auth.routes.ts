import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { headerValue, rateLimited } from '../../http/auth.ts';
import { problems } from '../../http/common.schemas.ts';
import { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Deps } from '../../deps.ts';
import { login } from './auth.service.ts';

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
    const perMinute = deps.config.loginRateLimitPerMinute;
    const limiter = new RateLimiter(perMinute / 60, perMinute);

    app.post('/login', {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Exchange clientId and clientSecret (with x-api-key) for an access token',
        headers: Type.Object({ 'x-api-key': Type.Optional(Type.String()) }),
        body: LoginBody,
        response: { 200: TokenResponse, ...problems(400, 401, 429) },
      },
      // Limited per API key (or per address without one) before any credential is checked.
      onRequest: async (request) => {
        const limit = limiter.take(headerValue(request.headers['x-api-key']) ?? `ip:${request.ip}`);
        if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'logins with this API key');
      },
      handler: (request) => login(deps.db, deps.tokens, { apiKey: headerValue(request.headers['x-api-key']), ...request.body }),
    });
  };
