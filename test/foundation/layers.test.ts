// Imports go one way (docs/conventions.md, issue 14): modules build on http/, db/ and lib/,
// never the reverse. What a plugin under http/ needs from a module reaches it through
// Deps (src/deps.ts wires the module's implementation of an interface http/ declares).
// Every import is read with TypeScript's own pre-processor: static, type-only, re-exports
// and dynamic import() alike, comments and strings aside.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const LOWER_LAYERS = ['src/http', 'src/db', 'src/lib'];
const MODULES = 'src/modules';

/**
 * The only edges allowed from a lower layer into src/modules, each one file to one file
 * (the last test fails while an entry is no longer used). None today: the OpenAPI
 * document's webhooks and named shapes reach src/http/openapi.ts from src/api-document.ts.
 */
const ALLOWED: { from: string; to: string }[] = [];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|mts|cts|js|mjs)$/.test(entry.name) ? [rel] : [];
  });
}

/** Every import of `file` that resolves into src/modules, as repository-relative paths. */
function moduleImports(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(root, path.resolve(path.dirname(path.join(root, file)), specifier)).split(path.sep).join('/'))
    .filter((target) => target === MODULES || target.startsWith(`${MODULES}/`));
}

const edges = LOWER_LAYERS.flatMap(sourceFiles).flatMap((from) => moduleImports(from).map((to) => ({ from, to })));
const allowed = (edge: { from: string; to: string }) => ALLOWED.some((a) => a.from === edge.from && a.to === edge.to);

describe('layers', () => {
  it('reads the lower layers (the walk finds their files and their imports)', () => {
    const files = LOWER_LAYERS.flatMap(sourceFiles);
    expect(files).toContain('src/http/auth.ts');
    expect(files).toContain('src/db/types.ts');
    expect(files).toContain('src/lib/errors.ts');
    // The reader sees multi-line, type-only, re-exported and dynamic imports.
    const sample = "import {\n  a,\n  b,\n} from '../modules/x/a.ts';\nimport type { T } from '../modules/y.ts';\nexport * from '../modules/z.ts';\nconst m = await import('../modules/w.ts');\n// import '../modules/comment.ts';\n";
    expect(ts.preProcessFile(sample, true, true).importedFiles.map((f) => f.fileName)).toEqual(['../modules/x/a.ts', '../modules/y.ts', '../modules/z.ts', '../modules/w.ts']);
  });

  it('http/, db/ and lib/ import nothing from src/modules', () => {
    expect(edges.filter((edge) => !allowed(edge)).map(({ from, to }) => `${from} imports ${to}`)).toEqual([]);
  });

  it('every allowed exception is still needed', () => {
    const unused = ALLOWED.filter((a) => !edges.some((edge) => edge.from === a.from && edge.to === a.to));
    expect(unused.map(({ from, to }) => `${from} no longer imports ${to}: delete the exception`)).toEqual([]);
  });
});
