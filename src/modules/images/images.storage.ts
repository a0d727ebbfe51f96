// Where image files live: a folder under DATA_DIR by default, an S3-compatible bucket
// when S3_BUCKET is set. Keys are `<sha256>/<file>`; the bytes behind a key never change,
// so writing a key again (another URL or supplier with the same bytes) is harmless.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Settings } from '../../config.ts';

export interface StoredObject {
  body: Readable;
  size: number | undefined;
}

export interface ImageStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or undefined when there is none under the key. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Removes the object; nothing under the key is not an error (the retention job, src/modules/retention). */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export function createImageStorage(config: Config): ImageStorage {
  return config.s3 ? new S3ImageStorage(config.s3) : new LocalImageStorage(path.join(config.dataDir, 'images'));
}

export class LocalImageStorage implements ImageStorage {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  // Two levels (ab/abcdef.../160.webp) keep directories small.
  private pathOf(key: string) {
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, body: Buffer) {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Written aside and renamed: a reader never sees half a file.
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.promises.writeFile(temporary, body);
    await fs.promises.rename(temporary, file);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const file = this.pathOf(key);
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const { size } = await handle.stat();
    return { body: handle.createReadStream(), size };
  }

  async delete(key: string) {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async close() {}
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK is loaded on first use: most installations store locally and need not pay for it at start. */
export class S3ImageStorage implements ImageStorage {
  readonly kind = 's3';
  private loaded: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;

  constructor(private readonly settings: S3Settings) {}

  private s3() {
    const { settings } = this;
    this.loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
        // Checksums only where S3 requires them: several S3-compatible stores refuse the
        // newer default checksum headers and trailers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.loaded;
  }

  private keyOf(key: string) {
    return `images/${key}`;
  }

  async put(key: string, body: Buffer, contentType: string) {
    const { sdk, client } = await this.s3();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key), Body: body, ContentType: contentType, CacheControl: IMMUTABLE }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const { sdk, client } = await this.s3();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
      if (!(object.Body instanceof Readable)) throw new Error('the S3 client returned no stream');
      return { body: object.Body, size: object.ContentLength };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async delete(key: string) {
    const { sdk, client } = await this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
  }

  async close() {
    if (this.loaded) (await this.loaded).client.destroy();
  }
}
