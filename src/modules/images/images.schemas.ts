import { Type } from 'typebox';
import { Nullable } from '../../lib/schemas.ts';

const FileUrl = (description: string) => Type.String({ format: 'uri', description });

export const ImageUrls = Type.Object(
  {
    original: FileUrl('the image as downloaded'),
    '160': FileUrl('WebP, 160 pixels wide (narrower originals are not enlarged)'),
    '480': FileUrl('WebP, 480 pixels wide (narrower originals are not enlarged)'),
    '1024': FileUrl('WebP, 1024 pixels wide (narrower originals are not enlarged)'),
  },
  { description: "The platform's copies of the image, on content-addressed URLs cached for a year" },
);

export const ImageStatus = Type.Union([Type.Literal('pending'), Type.Literal('ready'), Type.Literal('failed')], {
  description: 'pending: not downloaded yet (or retrying); ready: imageUrls are served; failed: see imageError',
});

/** The fields next to an `image` field; all null when `image` is null. */
export const ImageFields = {
  imageUrls: Nullable(ImageUrls),
  imageStatus: Nullable(ImageStatus),
  imageError: Nullable(Type.String({ description: 'why the image failed (or why the last attempt of a pending one did)' })),
};

/** One entry of a product's `images`, in the same order. */
export const ImageDetail = Type.Object({ url: Type.String(), ...ImageFields });

export const ImageFileParams = Type.Object({
  hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: "SHA-256 of the original's bytes" }),
  file: Type.String({ pattern: '^(original\\.[a-z]{3,4}|(160|480|1024)\\.webp)$', description: 'original.<ext>, 160.webp, 480.webp or 1024.webp' }),
});
