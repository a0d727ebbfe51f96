import { Type } from 'typebox';
import { Timestamp } from '../../http/common.schemas.ts';

export const ClockBody = Type.Object({
  now: Type.String({ format: 'date-time', description: "the sandbox's new time (RFC 3339, with its offset), not before its current one" }),
});
export const SandboxClock = Type.Object({
  now: Timestamp(),
  moved: Type.Boolean({ description: 'false: real time' }),
});
