// What the CLI leaves on disk and who may read it: DATA_DIR is created 0700 and everything
// the service writes in it (the embedded database, the lock) is owner-only, as is a backup;
// a folder someone made wider gets a warning at start. And `operator remove`, the inverse
// of `operator add`, through the real CLI (on PostgreSQL too when the suite runs there).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processScope, runCli } from '../helpers/process.ts';

const scope = processScope('data-dir');
const ADMIN = 'data-dir-admin-token-0123456789';

async function cli(args: string[], env: Record<string, string>) {
  const child = runCli(args, { ADMIN_TOKEN: ADMIN, NODE_ENV: 'development', DEMO_SUPPLIER: 'false', ...env });
  return { code: await child.exited, output: child.output() };
}

/** Every entry under `dir` whose mode is not `file` (files) or `folder` (folders). */
function wider(dir: string, file: number, folder: number): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const mode = fs.statSync(full).mode & 0o777;
    if (mode !== (entry.isDirectory() ? folder : file)) found.push(`${mode.toString(8)} ${full}`);
  }
  return found;
}

describe('DATA_DIR on disk', () => {
  it('is created 0700 with owner-only files, backs up to an owner-only file, and warns about a folder others can read', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-data-dir-'));
    try {
      const dataDir = path.join(parent, 'data');
      const migrated = await cli(['migrate'], { DATA_DIR: dataDir });
      expect(migrated.code, migrated.output).toBe(0);
      expect(migrated.output).not.toContain('warning');
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(wider(dataDir, 0o600, 0o700)).toEqual([]);

      const file = path.join(parent, 'backup.tar');
      const backup = await cli(['backup', file], { DATA_DIR: dataDir });
      expect(backup.code, backup.output).toBe(0);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      fs.chmodSync(dataDir, 0o755);
      const listed = await cli(['operator', 'list'], { DATA_DIR: dataDir });
      expect(listed.code, listed.output).toBe(0);
      expect(listed.output).toContain(`warning: DATA_DIR ${dataDir} can be read or entered by other users`);
      expect(listed.output).toContain(`chmod 700 ${dataDir}`);
      // The operator's choice stands; what the service wrote inside stays owner-only.
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o755);
      expect(wider(dataDir, 0o600, 0o700)).toEqual([]);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('operator remove', () => {
  it('is the inverse of operator add, and refuses an email that is no operator', async () => {
    // A copy of the migrated template: migrating from nothing is the test above's.
    const storage = await scope.storage({ migrated: true });
    expect((await cli(['operator', 'add', '--email', 'Ops@Example.test'], storage)).code).toBe(0);
    const removed = await cli(['operator', 'remove', '--email', 'ops@example.test'], storage);
    expect(removed.code, removed.output).toBe(0);
    expect(JSON.parse(removed.output.slice(removed.output.indexOf('{')))).toEqual({ email: 'ops@example.test', removed: true, sessionsEnded: 0 });
    const listed = await cli(['operator', 'list'], storage);
    expect(JSON.parse(listed.output.slice(listed.output.indexOf('[')))).toEqual([]);
    const again = await cli(['operator', 'remove', '--email', 'ops@example.test'], storage);
    expect(again.code).toBe(1);
    expect(again.output).toContain('ops@example.test is not an operator');
  });
});
