// Waiting, written once for tests, benchmarks and scripts: a pause, and two polls.
// `waitFor` waits for a value and treats a thrown error as "not yet" (a service still
// starting refuses connections); `waitUntil` waits for a condition and lets an error end
// the wait at once. Both name what they waited for when the time runs out.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What was waited for: a text, or one built when the time runs out (to show the last state seen). */
export type What = string | (() => string);

const timedOut = (what: What, timeoutMs: number, last?: unknown) =>
  new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}${last ? `: ${(last as Error).message}` : ''}`);

/** Calls `fn` every `everyMs` until it answers something other than undefined; an error it throws counts as not yet (the last one is named on timeout). */
export async function waitFor<T>(what: What, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw timedOut(what, timeoutMs, last);
    await sleep(everyMs);
  }
}

/** Calls `condition` every `everyMs` until it holds; an error it throws ends the wait. */
export async function waitUntil(what: What, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, everyMs = 5): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw timedOut(what, timeoutMs);
    await sleep(everyMs);
  }
}
