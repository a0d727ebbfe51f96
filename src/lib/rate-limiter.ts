// A token bucket per key: `rate` tokens a second, at most `burst` saved up. In memory,
// per process: with N API processes behind a balancer a key gets up to N times the
// rate (docs/scaling.md). Idle buckets are swept so memory follows active keys only.
export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until one token is available again (for Retry-After). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  take(key: string): RateLimitResult {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate)) };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const full = (this.burst / this.rate) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at > full) this.buckets.delete(key);
  }
}
