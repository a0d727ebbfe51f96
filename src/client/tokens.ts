// The access token, cached and renewed before it expires (the contract: "clients
// should cache it and renew it before it expires"). Renewal happens in the last fifth of
// the token's life, or its last minute when that is shorter: early enough that a request
// never leaves with a token about to die, late enough that a client logs in about once
// per lifetime (POST /login is limited to 10 a minute per API key). Concurrent callers
// share one login.
export interface TokenGrant {
  access_token: string;
  expires_in: number;
  scope: string;
}

const MAX_MARGIN_MS = 60_000;

export class TokenCache {
  private current: { token: string; renewAt: number; scopes: string[] } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly login: () => Promise<TokenGrant>,
    private readonly now: () => number,
  ) {}

  /** A token that is valid now and for a while yet. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    return this.renew();
  }

  /** Logs in now (sharing a login already under way). */
  renew(): Promise<string> {
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /**
   * The service refused this token (revoked credentials, a clock far off): the next call
   * logs in again. A token already replaced by a newer one is left alone.
   */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  scopes(): string[] | undefined {
    return this.current?.scopes;
  }

  private async fetch(): Promise<string> {
    // Measured before the request leaves, so network time only makes renewal earlier.
    const issuedBy = this.now();
    const grant = await this.login();
    const lifetimeMs = grant.expires_in * 1000;
    const margin = Math.min(MAX_MARGIN_MS, lifetimeMs / 5);
    this.current = { token: grant.access_token, renewAt: issuedBy + lifetimeMs - margin, scopes: grant.scope.split(' ').filter(Boolean) };
    return grant.access_token;
  }
}
