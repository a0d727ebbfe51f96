// openapi.json passes a standard OpenAPI linter: Redocly CLI (pinned as a dev dependency)
// with its recommended rules (redocly.yaml), no error and no warning. Offline: telemetry
// and the update check are off (redocly.yaml says so too).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const redocly = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

type Lint = { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };

describe('openapi.json lint', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [redocly, 'lint', 'openapi.json', '--format=json', '--max-problems=1000'], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const result = JSON.parse(stdout) as Lint;
    const problems = result.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('names every operation and declares the security of each', async () => {
    const { default: document } = (await import('../../openapi.json', { with: { type: 'json' } })) as { default: { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> } };
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, ...op })));
    expect(operations.filter((op) => !op.operationId || !op.security).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
    const app = operations.filter((op) => op.path.startsWith('/app/') && !op.path.startsWith('/app/auth/'));
    expect(app.length).toBeGreaterThan(0);
    expect(app.filter((op) => JSON.stringify(op.security) !== JSON.stringify([{ storeUser: [] }])).map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });
});
