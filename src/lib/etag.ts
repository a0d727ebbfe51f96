// ETag and 304 on a read a phone repeats over a weak network (the store catalogue): the
// answer's bytes are hashed once the handler answered, and a request whose If-None-Match
// names them is answered 304 with no body, so nothing but headers crosses the network.
// `private, no-cache`: a browser keeps it and asks again each time (a shared cache never
// keeps a person's answer). Weak, because a compressed answer is the same representation.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const strip = (tag: string) => tag.trim().replace(/^W\//, '');

/** A route's onSend hook: sets ETag on a 200 and turns a matching If-None-Match into 304. */
export async function etagged(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const tag = `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', tag);
  reply.header('cache-control', 'private, no-cache');
  const sent = request.headers['if-none-match'];
  if (typeof sent === 'string' && sent.split(',').some((t) => t.trim() === '*' || strip(t) === strip(tag))) {
    reply.code(304);
    return '';
  }
  return payload;
}
