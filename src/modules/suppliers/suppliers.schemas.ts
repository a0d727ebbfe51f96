import { Type } from 'typebox';
import { Nullable, Page, PageQuery, Timestamp } from '../../lib/schemas.ts';

export const CredentialListQuery = Type.Object({
  revoked: Type.Optional(Type.Boolean({ description: 'true: only revoked credentials; false: only live ones' })),
  ...PageQuery,
});

export const CredentialPage = Page(
  Type.Object({
    clientId: Type.String(),
    scopes: Type.Array(Type.String()),
    createdAt: Timestamp(),
    revokedAt: Nullable(Timestamp()),
  }),
);

export const SupplierIdentity = Type.Object({
  code: Type.String({ description: "the supplier's code (a test twin answers its live supplier's)" }),
  name: Type.String(),
  mode: Type.Union([Type.Literal('live'), Type.Literal('test')], {
    description: "`test`: the caller's token is a test credential's (or a console session in test mode) and reaches only the supplier's test twin",
  }),
});
