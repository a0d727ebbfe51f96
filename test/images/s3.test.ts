// With S3_BUCKET set, stored images go to an S3-compatible bucket (here s3rver, a local
// S3 stand-in) instead of DATA_DIR, and the service serves them from there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batch, fetchStored, getJson, makeImage, serve, startImageServer, untilSettled, type ImageServer } from './helpers.ts';

const BUCKET = 'surtido-images';
const KEY = 'S3RVER'; // s3rver's fixed credentials

let s3rver: S3rver;
let s3: S3Client;
let endpoint: string;
let folder: string;
let dataDir: string;
let server: ImageServer;
let t: TestApp;
let s: TestSupplier;
let jpeg: Buffer;

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-s3rver-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-data-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: folder, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: KEY, secretAccessKey: KEY } });
  jpeg = await makeImage(800, 600, 'jpeg');
  server = await startImageServer();
  server.route('/photo.jpg', serve(jpeg, 'image/jpeg'));
  t = await createTestApp({
    images: true,
    env: {
      DATA_DIR: dataDir,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
  });
  s = await t.supplier();
});
afterAll(async () => {
  await t?.close();
  await server?.close();
  s3?.destroy();
  await s3rver?.close();
  fs.rmSync(folder, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('images in an S3-compatible bucket', () => {
  it('stores the original and the versions in the bucket and serves them from it', async () => {
    await batch(t, s, '/batch/brand', [{ internalCode: 'B-S3', name: 'Bucket', image: server.url('/photo.jpg') }]);
    const brand = await untilSettled(() => getJson(t, s, '/brand/B-S3'), (b) => b.imageStatus);
    expect(brand).toMatchObject({ imageStatus: 'ready', imageError: null });
    const hash = new URL(brand.imageUrls.original).pathname.split('/')[2]!;

    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `images/${hash}/` }));
    expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual(
      ['1024.webp', '160.webp', '480.webp', 'original.jpg'].map((f) => `images/${hash}/${f}`),
    );
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `images/${hash}/480.webp` }));
    expect(object.ContentType).toBe('image/webp');
    expect(object.CacheControl).toBe('public, max-age=31536000, immutable');

    const original = await fetchStored(t, brand.imageUrls.original);
    expect(original.res.statusCode).toBe(200);
    expect(original.res.headers['content-type']).toBe('image/jpeg');
    expect(original.body.equals(jpeg)).toBe(true);
    for (const [width, expected] of [['160', [160, 120]], ['480', [480, 360]], ['1024', [800, 600]]] as const) {
      const { res, body } = await fetchStored(t, brand.imageUrls[width]);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', ...expected]);
    }
    expect((await t.request({ method: 'GET', url: `/images/${'f'.repeat(64)}/160.webp` })).statusCode).toBe(404);
    // Nothing went to the local folder.
    expect(fs.existsSync(path.join(dataDir, 'images'))).toBe(false);
  });

  it('reads the S3 settings, refusing incomplete ones with a message naming them', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'b' }).s3).toEqual({
      bucket: 'b',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/^S3_BUCKET is required when S3_ENDPOINT is set/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/^S3_ENDPOINT must be/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'x' })).toThrow(/^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'sometimes' })).toThrow(/^S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ IMAGE_MAX_BYTES: '0' })).toThrow(/^IMAGE_MAX_BYTES/);
  });
});
