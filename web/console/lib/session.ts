// What the console keeps in the browser, all under `surtido.console.`: the session's token
// and when it ends, and the language; signing out forgets the token (the computer may be
// shared), the language stays. The supplier the session acts for lives on the session
// itself (PUT /console/me/supplier). The store is the kit's (web/kit/session.ts).
import { createSessionStore } from '../../kit/session.ts';

const store = createSessionStore({ prefix: 'surtido.console.', extra: () => ({}), forget: 'token' });

export const session = store.session;
export const useSession = store.useSession;
