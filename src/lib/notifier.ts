// How messages reach people: the messages worker hands each one to a Notifier, which
// picks the channel (src/modules/messages/messages.channels.ts builds the real one from
// the settings). Development with no channel writes messages to the log; tests keep them.
export type IdentifierKind = 'phone' | 'email';
export type MessageChannel = 'email' | 'sms' | 'whatsapp';

export interface OutgoingMessage {
  purpose: 'code' | 'event';
  /** The phone (E.164) or email the message goes to. */
  to: string;
  kind: IdentifierKind;
  /** The channel the person chose (events); unset: the identifier's kind decides (codes). */
  channel?: MessageChannel | null;
  subject?: string | null;
  body: string;
  /** A code message's variables (WhatsApp templates): code, minutes. */
  variables?: Record<string, string> | null;
}

export interface Notifier {
  /** Whether a message can reach an identifier of this kind at all. */
  canSend(kind: IdentifierKind): boolean;
  /** Sends, answering what carried it (`email`, `sms`, `whatsapp`, `log`, `memory`); throws when it failed. */
  send(message: OutgoingMessage): Promise<string>;
}

/** Development only: a code in a log is readable by whoever reads the logs. */
export function logNotifier(log: (message: string) => void): Notifier {
  return {
    canSend: () => true,
    async send({ to, kind, body }) {
      log(`message for ${to} (${kind}): ${body}`);
      return 'log';
    },
  };
}

/** Keeps every message; tests read the code a person was sent. */
export class MemoryNotifier implements Notifier {
  readonly sent: OutgoingMessage[] = [];
  private readonly seen = new Map<string, number>();
  canSend() {
    return true;
  }
  async send(message: OutgoingMessage) {
    this.sent.push(message);
    return 'memory';
  }
  private codes(to: string) {
    return this.sent.filter((m) => m.to === to && m.purpose === 'code').map((m) => m.variables!.code!);
  }
  lastCodeFor(to: string): string | undefined {
    return this.codes(to).at(-1);
  }
  /** The newest code sent to `to` since the last call for `to`, waiting for it (the worker sends after the answer). */
  async waitForCode(to: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = this.codes(to);
      if (mine.length > (this.seen.get(to) ?? 0)) {
        this.seen.set(to, mine.length);
        return mine.at(-1)!;
      }
      if (Date.now() > deadline) throw new Error(`no code reached ${to}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
