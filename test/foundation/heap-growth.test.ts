// The service's memory policy (src/main/lifecycle.ts, boundHeapGrowth): a long run of
// requests, each keeping its parsed body while it makes short-lived garbage, must not
// let the heap grow with the length of the run. Each load runs in a fresh Node process,
// with the npm scripts' flags, once with the policy and once with V8's default.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const LOAD = path.join(import.meta.dirname, '../fixtures/heap-load.ts');

async function peakOldGenerationMb(policy: 'bounded' | 'default'): Promise<{ peakMb: number; keptMb: number }> {
  const { stdout } = await run(process.execPath, ['--max-semi-space-size=32', '--expose-gc', '--import', 'tsx', LOAD, policy], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('heap growth', () => {
  it('keeps the old generation near what a long load keeps, where V8 alone lets it grow with the load', async () => {
    const bounded = await peakOldGenerationMb('bounded');
    const unbounded = await peakOldGenerationMb('default');
    // The same load kept the same objects; only the garbage left standing differs.
    expect(Math.abs(bounded.keptMb - unbounded.keptMb)).toBeLessThan(5);
    // About 0.6 in practice (85 against 140 MiB of old generation).
    expect(bounded.peakMb).toBeLessThan(unbounded.peakMb * 0.75);
  }, 120_000);
});
