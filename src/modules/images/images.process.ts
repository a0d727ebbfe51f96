// Turns a downloaded image into the files the service serves: the original as it came,
// and a WebP version per width (never wider than the original). Everything is named by
// the SHA-256 of the original's bytes, so the files behind a path never change.
import { createHash } from 'node:crypto';
import type { StoredImageFile, StoredImageVariants } from '../../db/types.ts';
import { ImageFailure } from './images.fetch.ts';

export const WIDTHS = [160, 480, 1024] as const;

/** Decoding bombs: a small file may claim a huge canvas. 100 megapixels covers any product photo. */
const MAX_INPUT_PIXELS = 100_000_000;

/** Formats served as originals, with their extension and content type. */
const FORMATS: Record<string, { ext: string; contentType: string }> = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
  gif: { ext: 'gif', contentType: 'image/gif' },
  avif: { ext: 'avif', contentType: 'image/avif' },
  heif: { ext: 'heic', contentType: 'image/heic' },
  tiff: { ext: 'tiff', contentType: 'image/tiff' },
  svg: { ext: 'svg', contentType: 'image/svg+xml' },
};

/** File name -> content type, for the serving route. */
export const CONTENT_TYPES: Record<string, string> = Object.fromEntries(Object.values(FORMATS).map((f) => [f.ext, f.contentType]));

export interface ProcessedFile extends StoredImageFile {
  body: Buffer;
}

export interface ProcessedImage {
  hash: string;
  files: Record<keyof StoredImageVariants, ProcessedFile>;
}

export async function processImage(original: Buffer): Promise<ProcessedImage> {
  // Loaded on first use: the API and the CLI import this module without converting anything.
  const { default: sharp } = await import('sharp');
  const hash = createHash('sha256').update(original).digest('hex');
  const input = () => sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  const meta = await input()
    .metadata()
    .catch((error: unknown) => {
      throw new ImageFailure(`not a readable image: ${error instanceof Error ? error.message : String(error)}`, true);
    });
  const format = meta.format ? FORMATS[meta.format] : undefined;
  if (!format || !meta.width || !meta.height) throw new ImageFailure(`unsupported image format: ${meta.format ?? 'unknown'}`, true);
  // Width and height as displayed (EXIF orientation applied), as the versions are.
  const turned = (meta.orientation ?? 1) >= 5;
  const files = {
    original: {
      file: `original.${format.ext}`,
      contentType: format.contentType,
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      bytes: original.length,
      body: original,
    },
  } as ProcessedImage['files'];
  try {
    for (const width of WIDTHS) {
      const { data, info } = await input()
        .rotate()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      files[String(width) as '160'] = {
        file: `${width}.webp`,
        contentType: 'image/webp',
        width: info.width,
        height: info.height,
        bytes: data.length,
        body: data,
      };
    }
  } catch (error) {
    throw new ImageFailure(`the image could not be converted: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  return { hash, files };
}

/** What the row keeps: the files without their bytes. */
export function storedVariants(image: ProcessedImage): StoredImageVariants {
  const strip = ({ body: _body, ...file }: ProcessedFile): StoredImageFile => file;
  return {
    original: strip(image.files.original),
    '160': strip(image.files['160']),
    '480': strip(image.files['480']),
    '1024': strip(image.files['1024']),
  };
}
