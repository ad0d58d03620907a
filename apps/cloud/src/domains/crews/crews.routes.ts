import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { CrewsService } from './crews.service.ts';
import {
  AcceptQuery,
  CreateCrewBody,
  Crew,
  CrewInvite,
  CrewInviteList,
  CrewInviteView,
  CrewList,
  CrewMember,
  CrewMemberList,
  CrewParams,
  InviteBody,
  InviteOfCrewParams,
  InviteParams,
  MemberParams,
  RoleBody,
} from './crews.schemas.ts';

/** Crews (spec 1 §4.9; docs/decisions/crews.md): reads need machines:read, writes machines:write. */
export function crewsRoutes(kit: RouteKit, crews: CrewsService): Router {
  const r = Router();
  const tag = 'crews';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/crew',
      tag,
      summary: 'Create a crew; the caller becomes its owner',
      auth: 'operator',
      scopes: ['machines:write'],
      body: CreateCrewBody,
      response: Crew,
    },
    async ({ body }, req, res) => sendOk(res, await crews.create(principalOf(req), body)),
  );

  // before /:crewId, so "mine" is not read as an id
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crew/mine',
      tag,
      summary: "The caller's crews, oldest first, with their role in each; the first visit creates the caller's default crew",
      auth: 'operator',
      scopes: ['machines:read'],
      response: CrewList,
    },
    async (_input, req, res) => sendOk(res, await crews.mine(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/crew/accept-invite/:inviteId',
      tag,
      summary:
        'Accept an invitation as the invited email: 404 unknown invitation or wrong token, 403 another email, 410 expired, revoked or already used; accepting again answers the membership',
      auth: 'operator',
      scopes: ['machines:write'],
      params: InviteParams,
      query: AcceptQuery,
      response: CrewMember,
      errors: [403, 404, 410],
    },
    async ({ params, query }, req, res) => sendOk(res, await crews.accept(principalOf(req), params.inviteId, query.token)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crew/:crewId',
      tag,
      summary: 'One crew (its owners, admins and members only; anyone else 404)',
      auth: 'operator',
      scopes: ['machines:read'],
      params: CrewParams,
      response: Crew,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await crews.get(principalOf(req), params.crewId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/crew/:crewId/invite',
      tag,
      summary: 'Invite an email to the crew (owner/admin; only an owner invites an owner); answers the one-time token once, valid 7 days',
      auth: 'operator',
      scopes: ['machines:write'],
      params: CrewParams,
      body: InviteBody,
      response: CrewInvite,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await crews.invite(principalOf(req), params.crewId, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crew/:crewId/members',
      tag,
      summary: 'The members of a crew, owners first (members only; anyone else 404)',
      auth: 'operator',
      scopes: ['machines:read'],
      params: CrewParams,
      response: CrewMemberList,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await crews.members(principalOf(req), params.crewId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/crew/:crewId/members/:memberEmail/role',
      tag,
      summary: "Change a member's role (owner/admin; only an owner touches the owner role; 409 for the last owner)",
      auth: 'operator',
      scopes: ['machines:write'],
      params: MemberParams,
      body: RoleBody,
      response: CrewMember,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await crews.setRole(principalOf(req), params.crewId, params.memberEmail, body.role)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/crew/:crewId/members/:memberEmail',
      tag,
      summary: 'Remove a member (owner/admin; only an owner removes an owner; anyone may leave; 409 for the last owner); answers the removed membership',
      auth: 'operator',
      scopes: ['machines:write'],
      params: MemberParams,
      response: CrewMember,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await crews.remove(principalOf(req), params.crewId, params.memberEmail)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crew/:crewId/invites',
      tag,
      summary: "The crew's invitations, newest first, each in its state as of now (owner/admin); never a token",
      auth: 'operator',
      scopes: ['machines:read'],
      params: CrewParams,
      response: CrewInviteList,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await crews.invites(principalOf(req), params.crewId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/crew/:crewId/invites/:inviteId',
      tag,
      summary:
        'Cancel a pending invitation (owner/admin; an owner invitation only by an owner): its token stops working; 409 once accepted, revoked or expired',
      auth: 'operator',
      scopes: ['machines:write'],
      params: InviteOfCrewParams,
      response: CrewInviteView,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await crews.cancelInvite(principalOf(req), params.crewId, params.inviteId)),
  );
  return r;
}
