import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storeUserOf } from '../../http/auth.ts';
import { Page, problems } from '../../http/common.schemas.ts';
import type { Deps } from '../../deps.ts';
import { Notification, NotificationQuery, ReadAnswer, ReadBody } from './notifications.schemas.ts';
import { listNotifications, markRead } from './notifications.service.ts';

const tags = ['store app'];

export const notificationRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/app/notifications', {
      config: { auth: 'store' },
      schema: {
        tags,
        summary: "What happened that concerns the person's stores, newest first",
        querystring: NotificationQuery,
        response: { 200: Page(Notification), ...problems(400, 401) },
      },
      handler: (request) => listNotifications(deps.db, storeUserOf(request), request.query),
    });

    app.post('/app/notifications/read', {
      config: { auth: 'store' },
      schema: { tags, summary: 'Mark notifications read (for this person)', body: ReadBody, response: { 200: ReadAnswer, ...problems(400, 401) } },
      handler: (request) => markRead(deps.db, storeUserOf(request), request.body.ids),
    });
  };
