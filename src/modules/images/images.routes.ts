import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { problems } from '../../lib/schemas.ts';
import { notFound } from '../../lib/errors.ts';
import { CONTENT_TYPES } from './images.process.ts';
import { ImageFileParams } from './images.schemas.ts';
import { createImageStorage, IMMUTABLE } from './images.storage.ts';

const binary = (description: string) => ({
  description,
  content: { 'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
});

export const imageRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const storage = createImageStorage(deps.config);
    app.addHook('onClose', () => storage.close());

    app.get('/images/:hash/:file', {
      config: { auth: 'public' },
      schema: {
        tags: ['images'],
        summary: "A stored image: the original or a WebP version (the URLs in a GET's imageUrls)",
        params: ImageFileParams,
        response: {
          200: binary('the image; the path is content-addressed, so it is cached for a year'),
          304: { description: 'not modified (If-None-Match)', type: 'null' },
          ...problems(400, 404),
        },
      },
      handler: async (request, reply) => {
        const { hash, file } = request.params;
        const contentType = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)];
        const object = contentType ? await storage.get(`${hash}/${file}`) : undefined;
        if (!contentType || !object) throw notFound('image', `${hash}/${file}`, '/params/file');
        // The bytes behind a path never change: a CDN and the browser may keep them for a year.
        const etag = `"${hash}/${file}"`;
        reply
          .header('cache-control', IMMUTABLE)
          .header('etag', etag)
          .header('content-type', contentType)
          .header('x-content-type-options', 'nosniff')
          // An SVG original must not run scripts on this origin when opened directly.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
        if (request.headers['if-none-match'] === etag) {
          object.body.destroy();
          return reply.code(304).send(null);
        }
        if (object.size !== undefined) reply.header('content-length', object.size);
        return reply.send(object.body);
      },
    });
  };
