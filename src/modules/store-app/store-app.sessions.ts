// Signing out of the shop (DELETE /app/session): the token's session ends on the server,
// so the token stops opening /app at once, in every process (store-app.tokens.ts).
import type { StoreTokenIssuer } from './store-app.tokens.ts';

export async function signOut(tokens: StoreTokenIssuer, sessionKey: string) {
  await tokens.end(sessionKey);
  return { ended: true };
}
