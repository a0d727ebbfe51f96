// A clock for tests that move time forward without waiting (token expiry, webhook retries).

/** Real time plus an offset a test moves forward: never behind the database's clock. */
export class OffsetClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}
