// How one-time sign-in codes reach people. Pluggable: production wires an SMS or email
// sender here; development writes the code to the log; tests keep what was sent.
export interface SignInMessage {
  /** The phone (E.164) or email the code goes to. */
  to: string;
  channel: 'sms' | 'email';
  code: string;
  expiresInSeconds: number;
}

export interface Notifier {
  sendSignInCode(message: SignInMessage): Promise<void>;
}

export function logNotifier(log: (message: string) => void): Notifier {
  return {
    async sendSignInCode({ to, channel, code, expiresInSeconds }) {
      log(`sign-in code for ${to} (${channel}): ${code}, valid ${expiresInSeconds} s`);
    },
  };
}

/** Keeps every message; tests read the code a person was sent. */
export class MemoryNotifier implements Notifier {
  readonly sent: SignInMessage[] = [];
  async sendSignInCode(message: SignInMessage) {
    this.sent.push(message);
  }
  lastCodeFor(to: string): string | undefined {
    return this.sent.filter((m) => m.to === to).at(-1)?.code;
  }
}
