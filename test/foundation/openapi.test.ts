import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../scripts/openapi-document.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ worker: false });
});
afterAll(() => t.close());

describe('OpenAPI and docs', () => {
  it('the committed openapi.json is the one the route schemas generate (run `npm run openapi` to refresh)', async () => {
    const committed = fs.readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(await generateOpenApiDocument());
  });

  it('serves an OpenAPI 3.1 document naming every supplier route with its scope and security', async () => {
    const res = await t.request({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/batch/pricelist'].post;
    expect(op.description).toContain('supplier/pricelist.bulkwrite');
    // A credential (API key and token), or a member's console session.
    expect(op.security).toEqual([{ apiKey: [], bearer: [] }, { consoleSession: [] }]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['202', '402']));
    expect(op.responses['402'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Problem');
    expect(doc.paths['/admin/suppliers'].post.security).toEqual([{ admin: [] }, { consoleSession: [] }]);
    expect(doc.paths['/console/me'].get.security).toEqual([{ consoleSession: [] }]);
  });

  it('serves interactive documentation with its assets from the package (offline)', async () => {
    const page = await t.request({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const asset = await t.request({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body.length).toBeGreaterThan(100_000);
    expect(page.body).not.toMatch(/https?:\/\/(unpkg|cdn|cdnjs|jsdelivr)/);
  });

  it('answers /healthz and /readyz', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });
});
