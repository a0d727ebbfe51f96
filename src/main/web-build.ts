// The web apps' build (web/): Vite writes the shop and the console into
// `.web-build/<hash>/shop` and `.web-build/<hash>/console`, where the hash covers every
// source either build reads, then each text file gets its .br and .gz
// twins so the API serves them compressed without compressing per request.
//
// Several processes may start at once (npm start on one machine, many API processes in a
// deployment): each builds into its own temporary folder and renames it into place. A
// rename is atomic; a process that finds the folder already there drops its own build.
// So no folder is ever written by two processes, and a folder that exists is complete.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD_ROOT = path.join(REPO_ROOT, '.web-build');
const SOURCES = ['web/shop', 'web/console', 'web/lib', 'web/kit', 'web/vite.config.ts', 'web/vite.console.config.ts', 'src/client', 'package-lock.json'];
/** Each app, built from its own Vite config into its own folder (served under `/<app>/` by src/http/web.routes.ts). */
export const WEB_APPS = [
  { name: 'shop', config: 'web/vite.config.ts' },
  { name: 'console', config: 'web/vite.console.config.ts' },
] as const;
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest|txt|map)$/;

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  if (fs.statSync(dir).isFile()) return [dir];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The hash of every file the build reads: a build folder of this name is up to date. */
export function webSourceHash(root = REPO_ROOT): string {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((s) => walk(path.join(root, s)))) {
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The folder to serve: the build of the current sources, else the newest complete build. */
export function findWebBuild(root = REPO_ROOT): string | undefined {
  const buildRoot = path.join(root, '.web-build');
  const current = path.join(buildRoot, webSourceHash(root));
  if (fs.existsSync(current)) return current;
  if (!fs.existsSync(buildRoot)) return undefined;
  const builds = fs
    .readdirSync(buildRoot)
    .filter((n) => /^[0-9a-f]{16}$/.test(n))
    .map((n) => path.join(buildRoot, n))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return builds[0];
}

/** Builds the web apps unless a build of the current sources exists; answers its folder. */
export async function ensureWebBuild(log: (message: string) => void = () => {}, root = REPO_ROOT): Promise<string> {
  const hash = webSourceHash(root);
  const buildRoot = path.join(root, '.web-build');
  const target = path.join(buildRoot, hash);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(buildRoot, { recursive: true });
  const temp = fs.mkdtempSync(path.join(buildRoot, `tmp-${process.pid}-`));
  const started = Date.now();
  try {
    const { build } = await import('vite');
    // Always the production build (the JSX runtime and React's own checks follow NODE_ENV,
    // which is `test` under vitest). One build at a time per process, so this is safe.
    // The apps are built one after the other: the machines have two cores, and Vite
    // already uses both for one build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      for (const app of WEB_APPS) {
        await build({ configFile: path.join(root, app.config), mode: 'production', logLevel: 'warn', build: { outDir: path.join(temp, app.name), emptyOutDir: true } });
      }
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    await writeIcons(path.join(temp, 'shop'), path.join(root, 'web/shop/public/icon.svg'));
    precompress(temp);
    try {
      fs.renameSync(temp, target);
      log(`built the shop and the console in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      // Another process renamed its identical build into place first: use that one.
      if (!fs.existsSync(target)) throw error;
    }
    removeOldBuilds(buildRoot, hash);
    return target;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** The PWA icons, rendered from the SVG shipped in the repository (nothing fetched). */
async function writeIcons(outDir: string, svgPath: string) {
  const { default: sharp } = await import('sharp');
  const svg = fs.readFileSync(svgPath);
  for (const size of [192, 512]) await sharp(svg, { density: 300 }).resize(size, size).png().toFile(path.join(outDir, `icon-${size}.png`));
}

function precompress(dir: string) {
  for (const file of walk(dir).filter((f) => COMPRESSIBLE.test(f))) {
    const data = fs.readFileSync(file);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  }
}

/** Builds of older sources, and temporary folders of builds that died, left for over an hour. */
function removeOldBuilds(buildRoot: string, keep: string) {
  const hourAgo = Date.now() - 3600_000;
  for (const name of fs.readdirSync(buildRoot)) {
    const full = path.join(buildRoot, name);
    if (name !== keep && fs.statSync(full).mtimeMs < hourAgo) fs.rmSync(full, { recursive: true, force: true });
  }
}
