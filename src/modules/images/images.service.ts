// What the entities' GETs show about their images, and the one way to register image
// URLs with an entity write. No Fastify here: the catalog (and promotions) call these.
import type { Kysely } from 'kysely';
import type { DB, ImageStatus, StoredImageVariants } from '../../db/types.ts';
import { findImages } from './images.repository.ts';

export { registerImageUrls } from './images.repository.ts';

export interface ImageUrls {
  original: string;
  '160': string;
  '480': string;
  '1024': string;
}

/** The fields that sit next to an `image` field in a GET (all null when `image` is). */
export interface ImageView {
  imageUrls: ImageUrls | null;
  imageStatus: ImageStatus | null;
  imageError: string | null;
}

const NO_IMAGE: ImageView = { imageUrls: null, imageStatus: null, imageError: null };
/** A URL without a row yet (written before images were processed) is waiting like any other. */
const PENDING: ImageView = { imageUrls: null, imageStatus: 'pending', imageError: null };

/** The service's own, content-addressed URL of a stored file. */
export const imageFileUrl = (publicUrl: string, hash: string, file: string) => `${publicUrl}/images/${hash}/${file}`;

export function imageUrlsOf(publicUrl: string, hash: string, variants: StoredImageVariants): ImageUrls {
  const url = (v: keyof StoredImageVariants) => imageFileUrl(publicUrl, hash, variants[v].file);
  return { original: url('original'), '160': url('160'), '480': url('480'), '1024': url('1024') };
}

/**
 * The views of a supplier's image URLs, read with one query. Returns a lookup: the view
 * of a URL (null or undefined gives the all-null view of an entity without an image).
 */
export async function loadImageViews(
  db: Kysely<DB>,
  supplierId: number,
  urls: readonly (string | null | undefined)[],
  publicUrl: string,
): Promise<(url: string | null | undefined) => ImageView> {
  const wanted = urls.filter((u): u is string => typeof u === 'string');
  const rows = await findImages(db, supplierId, wanted);
  const views = new Map<string, ImageView>(
    rows.map((r) => [
      r.url,
      {
        imageUrls: r.status === 'ready' && r.content_hash && r.variants ? imageUrlsOf(publicUrl, r.content_hash, r.variants) : null,
        imageStatus: r.status,
        imageError: r.status === 'ready' ? null : r.error,
      },
    ]),
  );
  return (url) => (url == null ? NO_IMAGE : (views.get(url) ?? PENDING));
}
