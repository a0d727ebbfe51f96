// The shop (web/shop), served by the API under /shop/ from the build folder
// (src/main/web-build.ts). The files are read once into memory, with the .br and .gz
// twins the build wrote, and each answer is the smallest one the browser accepts.
// - `/shop/assets/*` are named by their content hash: cached for a year, immutable.
// - Every other file (index.html, sw.js, the manifest) is revalidated on each load, so a
//   new build reaches phones on their next visit.
// - A path under /shop/ that is no file is one of the app's own pages: index.html
//   answers it, so reloading any page works. Every shop path lives under /shop/, so it
//   can never shadow an API route; `/` sends a browser there.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findWebBuild } from '../main/web-build.ts';
import { sendProblem } from './error-handler.ts';

interface StaticFile {
  type: string;
  raw: Buffer;
  br?: Buffer;
  gz?: Buffer;
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
};

export function loadShopFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (!/\.(br|gz)$/.test(e.name)) {
        const rel = path.relative(dir, full).split(path.sep).join('/');
        const twin = (ext: string) => (fs.existsSync(full + ext) ? fs.readFileSync(full + ext) : undefined);
        files.set(rel, { type: TYPES[path.extname(e.name)] ?? 'application/octet-stream', raw: fs.readFileSync(full), br: twin('.br'), gz: twin('.gz'), immutable: rel.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return files;
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', file.type).header('vary', 'accept-encoding');
  reply.header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  reply.header('x-content-type-options', 'nosniff');
  if (file.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.br);
  if (file.gz && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gz);
  return reply.send(file.raw);
}

export const shopRoutes =
  (_deps: Deps, buildDir?: string): FastifyPluginAsync =>
  async (app) => {
    let files: Map<string, StaticFile> | undefined;
    const load = () => {
      if (files) return files;
      const dir = buildDir ?? findWebBuild();
      const shop = dir && path.join(dir, 'shop');
      if (!shop || !fs.existsSync(path.join(shop, 'index.html'))) return undefined;
      files = loadShopFiles(shop);
      return files;
    };

    const config = { auth: 'public' } as const;
    const schema = { hide: true };
    app.get('/', { config, schema }, async (request, reply) => {
      if (/text\/html/.test(String(request.headers.accept ?? ''))) return reply.redirect('/shop/', 302);
      return { name: 'surtido', shop: '/shop/', docs: '/docs', openapi: '/openapi.json' };
    });
    app.get('/shop', { config, schema }, async (_request, reply) => reply.redirect('/shop/', 301));
    app.get('/shop/*', { config, schema }, async (request, reply) => {
      const built = load();
      if (!built) return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'the shop is not built yet: run npm run build:web (npm start builds it)');
      const wanted = (request.params as { '*': string })['*'];
      const file = built.get(wanted);
      if (file) return send(request, reply, file);
      // A missing hashed file or other asset is a real 404; a page path is the app's.
      if (wanted.startsWith('assets/') || /\.[a-z0-9]+$/i.test(wanted)) return sendProblem(reply, 404, 'NOT_FOUND', `no file /shop/${wanted}`);
      return send(request, reply, built.get('index.html')!);
    });
  };
