// Development only: the demo catalog's product pictures, drawn here (an SVG rendered to
// PNG by sharp) so the demo needs nothing from the internet. The image worker downloads
// them like any supplier image.
import type { FastifyPluginAsync } from 'fastify';
import { demoImageColour } from '../main/demo-catalog.ts';
import { sendProblem } from './error-handler.ts';

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function demoImageSvg(code: string, colour: string): string {
  const label = escape(code.split('-')[0]!.slice(0, 8));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480" viewBox="0 0 480 480">
<rect width="480" height="480" fill="#f1f5f9"/>
<rect x="150" y="70" width="180" height="340" rx="36" fill="${colour}"/>
<rect x="190" y="40" width="100" height="50" rx="12" fill="#334155"/>
<rect x="150" y="190" width="180" height="110" fill="#ffffff" opacity="0.9"/>
<text x="240" y="258" font-family="sans-serif" font-size="34" font-weight="700" text-anchor="middle" fill="#0f172a">${label}</text>
</svg>`;
}

export const demoImageRoutes: FastifyPluginAsync = async (app) => {
  app.get('/dev/demo-images/:file', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const code = file.replace(/\.png$/, '');
    const colour = demoImageColour(code);
    if (!colour || !file.endsWith('.png')) return sendProblem(reply, 404, 'NOT_FOUND', `no demo image ${file}`);
    const { default: sharp } = await import('sharp');
    const png = await sharp(Buffer.from(demoImageSvg(code, colour))).png().toBuffer();
    return reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(png);
  });
};
