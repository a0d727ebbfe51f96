// Sends the message outbox. Each loop claims one due message with FOR UPDATE SKIP LOCKED
// and a lease, hands it to the notifier, records the attempt, and marks the row sent,
// rescheduled (with backoff) or ended. A code that expired, or whose recipient nobody
// names, is dropped unsent; a code's body is blanked as soon as it is sent or ended.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import { isKnownIdentifier } from '../people/people.service.ts';
import * as repo from './messages.repository.ts';
import { isReservedForTests, WITHHELD } from './messages.test-inbox.ts';

export interface MessageWorkerOptions {
  notifier: Notifier;
  concurrency: number;
  pollMs: number;
  leaseSeconds: number;
  /** Tries before a message is given up (failed). */
  maxAttempts: number;
  logger: WorkerLogger;
  /** Seconds before the next try after `attempts` failures. */
  backoff?: (attempts: number) => number;
}

const defaultBackoff = (attempts: number) => Math.min(600, 2 ** (attempts - 1) * 2);

export class MessageWorker extends PollingWorker {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: MessageWorkerOptions,
  ) {
    super({ name: 'messages', concurrency: options.concurrency, pollMs: options.pollMs, logger: options.logger });
  }

  protected async work(): Promise<boolean> {
    const m = await repo.claimDue(this.db, this.options.leaseSeconds);
    if (!m) return false;
    if (m.purpose === 'code' && m.expired) {
      await repo.markEnded(this.db, m.id, 'dropped', 'expired before it could be sent', false);
      return true;
    }
    // A code for a test twin's store user never leaves the platform (src/modules/sandbox): it
    // lands in the twin's test inbox, and only for an identifier reserved for tests, which
    // nobody owns; any other is withheld, so a sandbox never learns a real person's code.
    const inbox = m.purpose === 'code' ? await repo.testInboxOf(this.db, m.to_kind, m.recipient) : undefined;
    if (inbox !== undefined) {
      await repo.markInInbox(this.db, m.id, inbox, isReservedForTests(m.to_kind, m.recipient) ? null : WITHHELD);
      return true;
    }
    if (m.only_if_known && !(await isKnownIdentifier(this.db, m.to_kind, m.recipient))) {
      await repo.markEnded(this.db, m.id, 'dropped', null, false);
      return true;
    }
    const attempt = m.attempts + 1;
    const started = Date.now();
    try {
      const via = await this.options.notifier.send({
        purpose: m.purpose,
        to: m.recipient,
        kind: m.to_kind,
        channel: m.channel,
        subject: m.subject,
        body: m.body,
        variables: m.variables,
      });
      await repo.recordAttempt(this.db, { messageId: m.id, attempt, channel: via, ok: true, error: null, durationMs: Date.now() - started });
      // Development's log channel keeps a code until it expires, for GET /dev/mailbox.
      await repo.markSent(this.db, m.id, via, m.purpose === 'event' || via === 'log');
    } catch (error) {
      const message = ((error as Error).message ?? String(error)).slice(0, 500);
      await repo.recordAttempt(this.db, { messageId: m.id, attempt, channel: m.channel ?? m.to_kind, ok: false, error: message, durationMs: Date.now() - started });
      if (attempt >= this.options.maxAttempts) await repo.markEnded(this.db, m.id, 'failed', message, true);
      else await repo.reschedule(this.db, m.id, message, (this.options.backoff ?? defaultBackoff)(attempt));
      this.options.logger.warn({ messageId: m.id, attempt, error: message }, 'a message could not be sent');
    }
    return true;
  }
}
