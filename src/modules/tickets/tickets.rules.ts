// The ticket lifecycle (this module's README) as pure functions: each
// operation checks the state it is allowed from and returns the changed ticket, what the
// store is told and which webhook goes out. Nothing else moves a ticket.
import type { TicketMessage, TicketStatus } from '../../db/types.ts';
import { AppError } from '../../lib/errors.ts';
import type { NotificationType } from '../store-app/store-app.notifications.types.ts';

export interface TicketState {
  id: number;
  status: TicketStatus;
  externalTicketId: string | null;
  /** ISO timestamp, or null while unresolved. */
  resolvedAt: string | null;
  messages: TicketMessage[];
}

export type TicketOperation =
  | { op: 'update'; status?: 'IN_PROGRESS' | 'SOLVED'; externalTicketId?: string; message?: string }
  | { op: 'requestInfo'; message?: string }
  | { op: 'close'; message?: string }
  | { op: 'answer'; message: string };

export interface TicketChange {
  ticket: TicketState;
  /** False when the operation left the ticket as it was (an update without fields). */
  changed: boolean;
  notify?: NotificationType;
  webhook?: 'ticket.additional_info_received';
}

/** The states each operation is allowed from; the console offers a button from the same table. */
export const ALLOWED_FROM: Record<TicketOperation['op'], readonly TicketStatus[]> = {
  update: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED'],
  requestInfo: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED'],
  close: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED'],
  answer: ['ADDITIONAL_INFO_REQUESTED'],
};

const WHAT: Record<TicketOperation['op'], string> = {
  update: 'updated',
  requestInfo: 'asked for more information',
  close: 'closed',
  answer: 'answered (it is not waiting for information from the store)',
};

export function invalidTransition(ticket: TicketState, op: TicketOperation['op']) {
  return new AppError('INVALID_TICKET_TRANSITION', `ticket ${ticket.id} is ${ticket.status}: it cannot be ${WHAT[op]}`);
}

const append = (messages: TicketMessage[], from: TicketMessage['from'], message: string | undefined, at: string) =>
  message === undefined ? messages : [...messages, { from, message, at }];

/** Applies one operation at `at` (ISO), or throws 409 INVALID_TICKET_TRANSITION. */
export function applyTicketOperation(ticket: TicketState, operation: TicketOperation, at: string): TicketChange {
  if (!ALLOWED_FROM[operation.op].includes(ticket.status)) throw invalidTransition(ticket, operation.op);
  switch (operation.op) {
    case 'update': {
      const status = operation.status ?? ticket.status;
      // SOLVED sets resolvedAt (solving a solved ticket again keeps the first time);
      // moving back to IN_PROGRESS reopens the ticket, which is unresolved again.
      let resolvedAt = ticket.resolvedAt;
      if (operation.status === 'SOLVED' && ticket.status !== 'SOLVED') resolvedAt = at;
      else if (operation.status === 'IN_PROGRESS') resolvedAt = null;
      const next: TicketState = {
        ...ticket,
        status,
        resolvedAt,
        externalTicketId: operation.externalTicketId ?? ticket.externalTicketId,
        messages: append(ticket.messages, 'SUPPLIER', operation.message, at),
      };
      const solved = status === 'SOLVED' && ticket.status !== 'SOLVED';
      const changed =
        next.status !== ticket.status || next.resolvedAt !== ticket.resolvedAt || next.externalTicketId !== ticket.externalTicketId || operation.message !== undefined;
      const notify = solved ? 'TICKET_SOLVED' : operation.message !== undefined ? 'TICKET_MESSAGE' : undefined;
      return { ticket: next, changed, ...(notify ? { notify } : {}) };
    }
    case 'requestInfo':
      return {
        ticket: { ...ticket, status: 'ADDITIONAL_INFO_REQUESTED', messages: append(ticket.messages, 'SUPPLIER', operation.message, at) },
        changed: true,
        notify: 'TICKET_INFO_REQUESTED',
      };
    case 'close':
      return {
        ticket: { ...ticket, status: 'CLOSED', resolvedAt: ticket.resolvedAt ?? at, messages: append(ticket.messages, 'SUPPLIER', operation.message, at) },
        changed: true,
        notify: 'TICKET_CLOSED',
      };
    case 'answer':
      return {
        ticket: { ...ticket, status: 'IN_PROGRESS', messages: append(ticket.messages, 'STORE', operation.message, at) },
        changed: true,
        webhook: 'ticket.additional_info_received',
      };
  }
}
