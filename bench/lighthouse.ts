// Lighthouse 12 on the shop's pages, for `npm run bench:web` (issue 34). Lighthouse's own
// Node API with its default configuration: a mobile phone (Moto G Power screen) under
// simulated throttling (slow 4G, 4x CPU), performance only. Debian's Chromium is started
// here with a DevTools port, so the page's session can be written into localStorage on
// the service's origin first (through playwright-core over that port), and Lighthouse
// then connects to the same browser.
//
// Each run starts cold: Lighthouse 12 clears the origin's service workers, Cache Storage
// and the HTTP cache before it loads the page (its `clearStorageTypes`), but not
// localStorage, so the session and the cart written here survive and the page is the
// signed-in one. Every run is checked to have ended on the page asked for (a session that
// was not seen would end on the sign-in page) and to have asked the API what the page
// shows. Six audits (the LCP element, layout shifts, render-blocking resources, among
// others) error on Chromium's traces: a limit of the tool; the metrics are computed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from '../support/net.ts';
import { waitFor } from '../support/wait.ts';

/** The targets, for each page. */
export const TARGETS = { performance: 90, lcpMs: 2500, tbtMs: 200, cls: 0.05 };

export interface LighthousePage {
  name: string;
  /** The path under the service, e.g. /shop/catalog. */
  path: string;
  /** localStorage on the origin before each run (everything else there is removed). */
  storage: Record<string, string>;
  /** A request the page must have made (its data), checked in every run. */
  asks?: RegExp;
}

export interface Figures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  speedIndexMs: number;
}

export interface PageResult {
  page: LighthousePage;
  runs: Figures[];
  median: Figures;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Runs Lighthouse `runs` times on each page and answers each page's runs and their medians
 * (each figure's own median). `reportDir`: each run's JSON report is written there too.
 */
export async function runLighthouse(base: string, pages: LighthousePage[], { runs = 3, reportDir }: { runs?: number; reportDir?: string } = {}): Promise<PageResult[]> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-lighthouse-'));
  const chrome = spawn(
    process.env.CHROME_PATH ?? '/usr/bin/chromium',
    ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      () => `Chromium's DevTools port ${port}`,
      async () => ((await fetch(`${endpoint}/json/version`).catch(() => undefined))?.ok ? true : undefined),
      30_000,
      100,
    );
    // Lighthouse opens its tab in the browser's default context: the one whose storage is written here.
    const browser = await chromium.connectOverCDP(endpoint);
    const tab = await browser.contexts()[0]!.newPage();
    const results: PageResult[] = [];
    for (const page of pages) {
      const figures: Figures[] = [];
      for (let run = 1; run <= runs; run++) {
        // A file of the origin that runs no script of the app: localStorage without registering the service worker.
        await tab.goto(`${base}/shop/manifest.webmanifest`);
        await tab.evaluate((storage) => {
          localStorage.clear();
          for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
        }, page.storage);
        const url = `${base}${page.path}`;
        const result = await lighthouse(url, { port, hostname: '127.0.0.1', output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        const lhr = result.lhr;
        if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        if (reportDir) fs.writeFileSync(path.join(reportDir, `${page.name}-${run}.json`), String(result.report));
        const ended = new URL(lhr.finalDisplayedUrl).pathname;
        if (ended !== page.path) throw new Error(`Lighthouse on ${url} ended on ${ended}: the page was not the one asked for`);
        const requests = ((lhr.audits['network-requests']?.details as { items?: { url: string }[] } | undefined)?.items ?? []).map((r) => r.url);
        if (page.asks && !requests.some((u) => page.asks!.test(u))) throw new Error(`Lighthouse on ${url}: the page never asked for ${page.asks}`);
        const value = (id: string) => {
          const v = lhr.audits[id]?.numericValue;
          if (typeof v !== 'number') throw new Error(`Lighthouse on ${url}: no ${id} (${lhr.audits[id]?.errorMessage ?? 'missing'})`);
          return v;
        };
        figures.push({
          performance: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
          lcpMs: value('largest-contentful-paint'),
          tbtMs: value('total-blocking-time'),
          cls: value('cumulative-layout-shift'),
          fcpMs: value('first-contentful-paint'),
          speedIndexMs: value('speed-index'),
        });
      }
      const of = (k: keyof Figures) => median(figures.map((f) => f[k]));
      results.push({ page, runs: figures, median: { performance: of('performance'), lcpMs: of('lcpMs'), tbtMs: of('tbtMs'), cls: of('cls'), fcpMs: of('fcpMs'), speedIndexMs: of('speedIndexMs') } });
    }
    await browser.close();
    return results;
  } finally {
    const exited = new Promise((r) => (chrome.exitCode !== null ? r(undefined) : chrome.once('exit', r)));
    chrome.kill('SIGTERM');
    await exited;
    // Chromium's helper processes may still write into the profile for a moment after it
    // exits: a profile left in the temporary folder must not lose the figures measured.
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (error) {
      console.warn(`the browser profile ${profile} was left behind: ${error instanceof Error ? error.message : error}`);
    }
  }
}

/** Whether each target is met, for the table. */
export function verdicts(m: Figures) {
  return {
    performance: m.performance >= TARGETS.performance,
    lcp: m.lcpMs <= TARGETS.lcpMs,
    tbt: m.tbtMs <= TARGETS.tbtMs,
    cls: m.cls <= TARGETS.cls,
  };
}

/** The table `npm run bench:web` prints: one row a page, the medians and whether each target is met. */
export function lighthouseTable(results: PageResult[]): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const head = ['page', 'performance', 'LCP', 'TBT', 'CLS', 'FCP', 'targets'];
  const rows = results.map(({ page, median: m }) => {
    const v = verdicts(m);
    const missed = Object.entries(v).filter(([, ok]) => !ok).map(([k]) => k);
    return [
      page.name,
      `${m.performance} ${mark(v.performance)}`,
      `${(m.lcpMs / 1000).toFixed(2)} s ${mark(v.lcp)}`,
      `${Math.round(m.tbtMs)} ms ${mark(v.tbt)}`,
      `${m.cls.toFixed(3)} ${mark(v.cls)}`,
      `${(m.fcpMs / 1000).toFixed(2)} s`,
      missed.length ? `MISSED: ${missed.join(', ')}` : 'all met',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
