// A supplier's members: through the supplier API (the console's owners, and scripts holding
// supplier/member.write) and, for the first owner, through the admin API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { audited } from '../audit/audited.ts';
import { rateLimited } from '../../lib/errors.ts';
import { supplierOf } from '../auth/principal.ts';
import { RateLimiter } from '../../lib/rate-limiter.ts';
import { IdParams, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { SupplierIdParams } from '../admin/admin.schemas.ts';
import { InviteBody, Member, Removed, RoleBody } from './members.schemas.ts';
import { changeRole, inviteMember, listMembers, removeMember } from './members.service.ts';

const tags = ['members'];
// Members are the live supplier's people (a member works on its test twin with the same
// role, src/modules/sandbox): test mode has no members of its own to read or write.
const read = { auth: 'supplier', scope: 'supplier/member.read', mode: 'live' } as const;
const write = { auth: 'supplier', scope: 'supplier/member.write', audit: 'member', mode: 'live' } as const;

export const memberRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const consoleUrl = `${deps.config.publicUrl}/console/`;
    // Each invitation is an email the platform sends in the supplier's name: counted per
    // supplier, whoever sends them (README.md). Every attempt counts, before the body is
    // checked, and the count is this process's, like every rate limit of the service.
    const perHour = deps.config.memberInvitationsPerHour;
    const invitations = new RateLimiter(perHour / 3600, perHour, { maxKeys: deps.config.rateLimitMaxKeys });

    app.get('/member', {
      config: read,
      schema: { tags, summary: "The supplier's members (people who sign in to its console), by email", response: { 200: Type.Array(Member), ...problems(401, 403) } },
      handler: (request) => listMembers(deps.db, supplierOf(request).supplierId),
    });

    app.post('/member', {
      config: write,
      schema: {
        tags,
        summary: 'Invite a member: they get an email and sign in to the console with a code sent there',
        body: InviteBody,
        response: { 200: Member, ...problems(400, 401, 403, 409) },
      },
      handler: (request) => {
        const supplierId = supplierOf(request).supplierId;
        const limit = invitations.take(`supplier:${supplierId}`);
        if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, "this supplier's invitations");
        return audited(deps, request, (db) => inviteMember(db, supplierId, request.body, consoleUrl));
      },
    });

    app.put('/member/:id', {
      config: write,
      schema: {
        tags,
        summary: "Change a member's role (effective on their next request); the last owner cannot be demoted",
        params: IdParams,
        body: RoleBody,
        response: { 200: Member, ...problems(400, 401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => changeRole(db, supplierOf(request).supplierId, request.params.id, request.body.role)),
    });

    app.delete('/member/:id', {
      config: write,
      schema: {
        tags,
        summary: 'Remove a member: their console sessions for this supplier end at once; the last owner cannot be removed',
        params: IdParams,
        response: { 200: Removed, ...problems(401, 403, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => removeMember(db, supplierOf(request).supplierId, request.params.id)),
    });

    app.get('/admin/suppliers/:supplierId/members', {
      config: { auth: 'admin' },
      schema: { tags: ['admin'], summary: "A supplier's members", params: SupplierIdParams, response: { 200: Type.Array(Member), ...problems(401, 404) } },
      handler: (request) => listMembers(deps.db, request.params.supplierId),
    });

    app.post('/admin/suppliers/:supplierId/members', {
      config: { auth: 'admin', audit: 'member' },
      schema: {
        tags: ['admin'],
        summary: "Add a member to a supplier (its first owner): they get an email inviting them to the console",
        params: SupplierIdParams,
        body: InviteBody,
        response: { 200: Member, ...problems(400, 401, 404, 409) },
      },
      handler: (request) => audited(deps, request, (db) => inviteMember(db, request.params.supplierId, request.body, consoleUrl)),
    });
  };
