// Build, start, drain, close. On SIGTERM or SIGINT the service stops accepting, finishes
// what is in flight (requests; the chunk each worker holds, giving its lease back),
// closes the database and exits. A second signal, or the deadline, forces the exit.
export interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

export function drainOnSignals(parts: Stoppable[], options: { timeoutMs: number; log: (msg: string) => void }) {
  let stopping = false;
  const stopAll = async (signal: string) => {
    if (stopping) {
      options.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    options.log(`${signal}: draining (send it again to force exit)`);
    const deadline = setTimeout(() => {
      options.log(`drain took longer than ${options.timeoutMs} ms: exiting`);
      process.exit(1);
    }, options.timeoutMs);
    deadline.unref();
    for (const part of parts) {
      try {
        await part.stop();
      } catch (error) {
        options.log(`stopping ${part.name} failed: ${(error as Error).message}`);
      }
    }
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  process.on('SIGINT', () => void stopAll('SIGINT'));
}
