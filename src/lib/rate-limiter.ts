// A token bucket per key: `rate` tokens a second, at most `burst` saved up. In memory,
// per process: with N API processes behind a balancer a key gets up to N times the
// rate (docs/scaling.md).
//
// The state is bounded, whatever keys arrive (docs/security.md):
// - a bucket that has refilled to the burst ("at rest") is the same as no bucket, so
//   dropping it changes nobody's limit; idle buckets are swept every minute, and when the
//   map is at its cap the resting ones are dropped first;
// - at the cap with no bucket at rest (every key in the map has been used within the
//   last burst/rate seconds), a new key is let through without state rather than refused:
//   dropping an active bucket would hand its client a fresh burst, and refusing new keys
//   would lock out every real client that was not already in the map. The cap is sized
//   far above the number of keys a deployment really has; callers check a key's shape
//   before calling take, so junk is refused before it gets here.
export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until one token is available again (for Retry-After). */
  retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  /** Keys kept at most (default 10,000). */
  maxKeys?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private lastSweep = 0;
  /** When the map is full of active buckets: the earliest time one of them comes to rest. */
  private noneAtRestUntil = 0;
  /** Requests let through without state because the map was full of active buckets. */
  overflowed = 0;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    options: RateLimiterOptions = {},
  ) {
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? (() => Date.now());
  }

  /** Keys with state. */
  get size() {
    return this.buckets.size;
  }

  /** Takes a token for the key. */
  take(key: string): RateLimitResult {
    const now = this.now();
    this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxKeys && !this.makeRoom(now)) {
        this.overflowed++;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = this.refilled(bucket, now);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: this.retryAfter(bucket.tokens) };
  }

  /** Whether take would allow the key now, without taking anything or keeping state. */
  check(key: string): RateLimitResult {
    const bucket = this.buckets.get(key);
    const tokens = bucket ? this.refilled(bucket, this.now()) : this.burst;
    return tokens >= 1 ? { allowed: true, retryAfterSeconds: 0 } : { allowed: false, retryAfterSeconds: this.retryAfter(tokens) };
  }

  private refilled(bucket: Bucket, now: number) {
    return Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
  }

  private retryAfter(tokens: number) {
    return Math.max(1, Math.ceil((1 - tokens) / this.rate));
  }

  /** Drops every bucket at rest; false when none was (and notes when one will be). */
  private makeRoom(now: number): boolean {
    if (now < this.noneAtRestUntil) return false;
    let soonest = Infinity;
    for (const [key, bucket] of this.buckets) {
      const tokens = this.refilled(bucket, now);
      if (tokens >= this.burst) this.buckets.delete(key);
      else soonest = Math.min(soonest, now + ((this.burst - tokens) / this.rate) * 1000);
    }
    if (this.buckets.size < this.maxKeys) return true;
    this.noneAtRestUntil = soonest;
    return false;
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (this.refilled(bucket, now) >= this.burst) this.buckets.delete(key);
  }
}
