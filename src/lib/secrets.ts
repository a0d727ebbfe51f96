// Credentials are random, high-entropy strings, so a plain SHA-256 is the right
// hash for storing them (a slow password hash protects guessable secrets; these are not
// guessable, and a fast hash lets the API key index the row it belongs to).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const randomToken = (prefix: string, bytes = 24) => `${prefix}_${randomBytes(bytes).toString('base64url')}`;

/** A session id (console or store user): 32 random bytes, base64url. Tokens carry it; the database keeps its sha256. */
export const newSessionId = () => randomBytes(32).toString('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
