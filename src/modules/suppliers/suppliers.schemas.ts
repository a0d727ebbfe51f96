import { Type } from 'typebox';
import { Nullable, Page, PageQuery, Timestamp } from '../../http/common.schemas.ts';

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
