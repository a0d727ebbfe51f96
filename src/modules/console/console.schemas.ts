import { Type } from 'typebox';
import { Email } from '../stores/stores.schemas.ts';
import { Role } from '../members/members.schemas.ts';

export const EmailBody = Type.Object({ email: Email() }, { description: 'the email a supplier invited, or an operator' });
export const EmailCodeBody = Type.Object({ email: Email(), code: Type.String({ pattern: '^[0-9]{6}$' }) });
export const CodeSent = Type.Object({ expiresIn: Type.Integer({ description: 'seconds the code is valid' }) });
export const ConsoleToken = Type.Object({
  access_token: Type.String({ description: 'send as `Authorization: Bearer` to /console, the supplier API (no API key) and, for an operator, the admin API' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds until the session ends at the latest' }),
  idle_timeout: Type.Integer({ description: 'seconds without a request after which the session ends; each request renews it' }),
});
export const ConsoleMe = Type.Object({
  email: Type.String(),
  operator: Type.Boolean({ description: 'a platform operator: the admin API is open to this session' }),
  supplierId: Type.Union([Type.Integer(), Type.Null()], { description: 'the supplier this session acts for on the supplier API; null until one is chosen' }),
  mode: Type.Union([Type.Literal('live'), Type.Literal('test')], {
    description: "`test`: the session's supplier calls work on the supplier's test twin (PUT /console/me/mode)",
  }),
  memberships: Type.Array(
    Type.Object({
      supplier: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String(), enabled: Type.Boolean() }),
      role: Role,
    }),
  ),
});
/** The platform's money and date settings, as GET /app/me answers them to stores: the console shows amounts the same way. */
export const ConsoleSettings = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217 code of the platform currency (CURRENCY)' }),
    currencyDecimals: Type.Integer({ description: "digits of the currency's smallest unit (CURRENCY_DECIMALS)" }),
    locale: Type.String({ description: "the apps' default BCP 47 locale (LOCALE)" }),
    timezone: Type.String({ description: "the platform's IANA timezone (TIMEZONE): calendar dates are in it" }),
  },
  { description: 'how the console shows money and dates' },
);
export const ChooseSupplierBody = Type.Object({ supplierId: Type.Integer({ minimum: 1 }) });
export const ModeBody = Type.Object({
  mode: Type.Union([Type.Literal('live'), Type.Literal('test')], { description: 'test: work on the test twin (made on first use); live: on the live supplier' }),
});
export const SignedOut = Type.Object({ ended: Type.Boolean() });
