// A ticket's status, in words and colour (the list, the ticket page).
import type { TicketStatus } from '../lib/api.ts';
import { useT } from '../i18n.ts';

export function TicketBadge({ status }: { status: TicketStatus }) {
  const t = useT();
  return (
    <span className={`status ticket-${status.toLowerCase()}`} data-testid="ticket-status">
      {t(`ticketStatus.${status}`)}
    </span>
  );
}
