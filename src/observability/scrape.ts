// One scrape of /metrics, the same on the API's port and on a worker's METRICS_PORT.
import { safeEqual } from '../lib/secrets.ts';
import type { Metrics } from './metrics.ts';

export interface ScrapeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** With METRICS_TOKEN set, only `Authorization: Bearer <token>` is answered with the metrics. */
export async function scrape(metrics: Metrics, token: string | undefined, authorization: string | undefined): Promise<ScrapeAnswer> {
  if (token !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match || !safeEqual(match[1]!, token)) {
      return { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' }, body: 'a valid metrics token is required\n' };
    }
  }
  return { status: 200, headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' }, body: await metrics.scrape() };
}
