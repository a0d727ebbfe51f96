import { Type } from 'typebox';
import { Timestamp } from '../../lib/schemas.ts';
import { MEMBER_ROLES } from '../auth/scopes.ts';
import { Email } from '../stores/stores.schemas.ts';

export const Role = Type.Enum(MEMBER_ROLES, {
  description: 'owner: everything, members and credentials included; manager: every read and write of the supplier API; agent: orders and tickets; viewer: read only',
});
export const InviteBody = Type.Object({ email: Email(), role: Role });
export const RoleBody = Type.Object({ role: Role });
export const Member = Type.Object({ id: Type.Integer(), email: Type.String(), role: Role, createdAt: Timestamp(), updatedAt: Timestamp() });
export const Removed = Type.Object({ id: Type.Integer(), removed: Type.Boolean() });
