import { Type } from 'typebox';
import { Code, Name, Timestamp } from '../../http/common.schemas.ts';

export const CreateGrouper = Type.Object({ internalCode: Code(), name: Name() });
export const UpdateGrouper = Type.Object({ name: Name() });
export const GrouperStatusBody = Type.Object({ enabled: Type.Boolean() });

export const GrouperStoreLink = Type.Object({ groupInternalCode: Code(), storeInternalCode: Code() });
const Links = Type.Object({ stores: Type.Array(GrouperStoreLink, { maxItems: 50_000 }) });
export const GrouperBatchBody = Type.Object({ add: Type.Optional(Links), remove: Type.Optional(Links) });

export const Grouper = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean(),
  stores: Type.Array(Type.Object({ groupInternalCode: Type.String(), storeInternalCode: Type.String() })),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
