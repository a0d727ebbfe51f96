// The web apps, served by the API from the build folder (src/main/web-build.ts): the shop
// (web/shop) under /shop/ and the console (web/console) under /console/, each app the
// same way. The files are read once into memory, with the .br and .gz twins the build
// wrote, and each answer is the smallest one the browser accepts.
// - `/<app>/assets/*` are named by their content hash: cached for a year, immutable.
// - Every other file (index.html, sw.js, the manifest) is revalidated on each load, so a
//   new build reaches browsers on their next visit.
// - A path under /<app>/ that is no file is one of the app's own pages: index.html
//   answers it, so reloading any page works. `/` sends a browser to the shop.
// - The console's API routes (/console/auth/*, /console/me, /console/session) share the
//   prefix: Fastify prefers a route's static path to this wildcard, so those stay the
//   API's, and the console has no page at those paths.
// - Every answer here (pages, assets, a missing file, "not built yet") carries the apps'
//   Content-Security-Policy and `X-Content-Type-Options: nosniff` (webAppPolicy below;
//   docs/security.md, "The web apps' headers").
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

export function loadAppFiles(dir: string): Map<string, StaticFile> {
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
  if (file.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.br);
  if (file.gz && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gz);
  return reply.send(file.raw);
}

/**
 * The apps' Content-Security-Policy. Their builds hold no inline script or style (the
 * pages load /<app>/assets/* only; test/hardening/web-headers.test.ts reads the real
 * build), so nothing needs 'unsafe-inline', a hash or a nonce. They call the service only
 * on their own origin; images are the service's own (`/images/...`, addressed from
 * PUBLIC_URL, whose origin is allowed too: behind a proxy it may not be the page's), never
 * a supplier's URL (src/modules/store-app/README.md). No page may be framed (clickjacking).
 */
export function webAppPolicy(publicUrl: string): string {
  let images = "'self'";
  try {
    const origin = new URL(publicUrl).origin;
    if (origin !== 'null') images += ` ${origin}`;
  } catch {
    // config.ts checks PUBLIC_URL; an unusable one adds nothing.
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images}`,
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The apps served, each from its folder of the build. */
export const WEB_APP_NAMES = ['shop', 'console'] as const;
export type WebAppName = (typeof WEB_APP_NAMES)[number];

export const webRoutes =
  (deps: Deps, buildDir?: string): FastifyPluginAsync =>
  async (app) => {
    const policy = webAppPolicy(deps.config.publicUrl);
    const loaded = new Map<WebAppName, Map<string, StaticFile>>();
    const load = (name: WebAppName) => {
      const cached = loaded.get(name);
      if (cached) return cached;
      const dir = buildDir ?? findWebBuild();
      const folder = dir && path.join(dir, name);
      if (!folder || !fs.existsSync(path.join(folder, 'index.html'))) return undefined;
      const files = loadAppFiles(folder);
      loaded.set(name, files);
      return files;
    };

    const config = { auth: 'public' } as const;
    const schema = { hide: true };
    app.get('/', { config, schema }, async (request, reply) => {
      if (/text\/html/.test(String(request.headers.accept ?? ''))) return reply.redirect('/shop/', 302);
      return { name: 'surtido', shop: '/shop/', console: '/console/', docs: '/docs', openapi: '/openapi.json' };
    });
    for (const name of WEB_APP_NAMES) {
      app.get(`/${name}`, { config, schema }, async (_request, reply) => reply.redirect(`/${name}/`, 301));
      app.get(`/${name}/*`, { config, schema }, async (request, reply) => {
        reply.header('content-security-policy', policy).header('x-content-type-options', 'nosniff');
        const built = load(name);
        if (!built) return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', `the ${name} is not built yet: run npm run build:web (npm start builds it)`);
        const wanted = (request.params as { '*': string })['*'];
        const file = built.get(wanted);
        if (file) return send(request, reply, file);
        // A missing hashed file or other asset is a real 404; a page path is the app's.
        if (wanted.startsWith('assets/') || /\.[a-z0-9]+$/i.test(wanted)) return sendProblem(reply, 404, 'NOT_FOUND', `no file /${name}/${wanted}`);
        return send(request, reply, built.get('index.html')!);
      });
    }
  };
