// What a store is told about, as the app shows it. The orders module adds its own
// moments through the same recordNotification.
export const NOTIFICATION_TYPES = [
  'TICKET_INFO_REQUESTED',
  'TICKET_SOLVED',
  'TICKET_CLOSED',
  'TICKET_MESSAGE',
  'ORDER_CONFIRMED',
  'ORDER_DELIVERED',
  'ORDER_CANCELLED',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
