import { Type } from 'typebox';
import { Code, Name, Page, PageQuery, SearchQuery, Timestamp } from '../../lib/schemas.ts';

export const CreateGrouper = Type.Object({ internalCode: Code(), name: Name() });
export const UpdateGrouper = Type.Object({ name: Name() });
export const GrouperStatusBody = Type.Object({ enabled: Type.Boolean() });

export const GrouperStoreLink = Type.Object({ groupInternalCode: Code(), storeInternalCode: Code() });
const Links = Type.Object({ stores: Type.Array(GrouperStoreLink) });
export const GrouperBatchBody = Type.Object({ add: Type.Optional(Links), remove: Type.Optional(Links) });

export const Grouper = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  stores: Type.Array(Type.Object({ groupInternalCode: Type.String(), storeInternalCode: Type.String() })),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});

export const GrouperListQuery = Type.Object({ ...SearchQuery, enabled: Type.Optional(Type.Boolean()), ...PageQuery });
export const GrouperPage = Page(
  Type.Object({
    internalCode: Type.String(),
    name: Type.String(),
    enabled: Type.Boolean(),
    storeCount: Type.Integer({ description: 'stores linked (links to stores not created yet included)' }),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  }),
);
