import { Type, type Static } from 'typebox';
import { Code, Money, Name, Nullable, PageQuery, SearchQuery, Timestamp } from '../../lib/schemas.ts';

const CalendarDate = (description = 'YYYY-MM-DD') => Type.String({ format: 'calendar-date', description });

export const CutoffMode = Type.Union([Type.Literal('strict'), Type.Literal('flexible')], {
  description: "strict: after a date's cut-off it cannot be ordered for; flexible: it still can, the order flagged afterCutoff",
});

export const DeliveryDaySchema = Type.Object({
  weekday: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday ... 7 Sunday' }),
  cutoff: Type.Object({
    daysBefore: Type.Integer({ minimum: 0, maximum: 30, description: 'orders for a delivery close this many days before it' }),
    time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: "HH:MM, 24-hour, in the zone's timezone" }),
  }),
});

export const DeliveryExceptionSchema = Type.Object(
  {
    date: CalendarDate('the delivery date the exception is about'),
    closed: Type.Optional(Type.Boolean({ description: 'true: no delivery on that date' })),
    movedTo: Type.Optional(CalendarDate("that date's delivery happens on this date instead, its cut-off counted from it")),
  },
  { description: 'exactly one of closed: true and movedTo' },
);

export const MinimumOrderSchema = Type.Object(
  {
    amount: Money(),
    mode: Type.Union([Type.Literal('hard'), Type.Literal('soft'), Type.Literal('fee')]),
    fee: Type.Optional(Money({ description: 'charged below the amount; required when mode is fee' })),
  },
  { description: "the zone's default minimum order: a store's dropSize overrides the amount, the mode applies (src/modules/pricing/README.md, \"Minimum order\")" },
);

const zoneFields = {
  name: Name(),
  timezone: Type.String({ minLength: 1, maxLength: 100, description: 'IANA timezone, e.g. America/Bogota' }),
  cutoffMode: Type.Optional(CutoffMode),
  days: Type.Array(DeliveryDaySchema, { minItems: 1, maxItems: 7, description: 'one entry per delivery weekday' }),
  exceptions: Type.Optional(Type.Array(DeliveryExceptionSchema, { maxItems: 400 })),
  minimumOrder: Type.Optional(Nullable(MinimumOrderSchema)),
};

/** PUT /deliveryzone/{code}: the zone whole (absent exceptions: none; absent cutoffMode: strict; absent minimumOrder: none). */
export const DeliveryZoneBody = Type.Object(zoneFields);
export const DeliveryZoneInput = Type.Object({ internalCode: Code(), ...zoneFields });
// A batch array has no maxItems: the one item limit is MAX_BATCH_REQUEST_ITEMS, checked on acceptance.
export const DeliveryZoneBatchBody = Type.Object({ upsert: Type.Array(DeliveryZoneInput) });

export const DeliveryZone = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  timezone: Type.String(),
  cutoffMode: CutoffMode,
  days: Type.Array(DeliveryDaySchema),
  exceptions: Type.Array(DeliveryExceptionSchema),
  minimumOrder: Nullable(MinimumOrderSchema),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});

export const DeliveryZoneListQuery = Type.Object({ ...SearchQuery, ...PageQuery });

export const DeliveryOptionSchema = Type.Object({
  date: CalendarDate(),
  cutoffAt: Timestamp(),
  cutoffLocal: Type.String({ description: "the cut-off in the zone's local time with its offset, e.g. 2026-05-06T18:00:00-05:00" }),
  afterCutoff: Type.Boolean({ description: "a flexible zone's date past its cut-off: orders for it are still taken, flagged" }),
});
export const DeliveryOptions = Type.Object(
  { data: Type.Array(DeliveryOptionSchema) },
  { description: 'the next valid delivery dates in order (14), none when the store has no delivery zone' },
);

/** The body of a delivery.cutoff_reached webhook. */
export const CutoffReached = Type.Object({
  zone: Type.String({ description: "the zone's internalCode" }),
  date: CalendarDate('the delivery date whose orders just closed'),
  cutoffAt: Timestamp(),
  orderIds: Type.Array(Type.Integer(), { description: 'the orders for that zone and date, not cancelled, by id' }),
});

export type DeliveryZoneFields = Static<typeof DeliveryZoneBody>;
