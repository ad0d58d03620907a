import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { AccessService } from './access.service.ts';
import {
  AccessGroup,
  AccessGroupList,
  AccessMe,
  AccessSession,
  Assignment,
  AssignmentBody,
  AssignmentQuery,
  GroupBody,
  GroupParams,
  SessionBody,
} from './access.schemas.ts';

/** Access groups (spec 1 §4.2; docs/decisions/access.md): reads need machines:read, writes machines:write. */
export function accessRoutes(kit: RouteKit, access: AccessService): Router {
  const r = Router();
  const tag = 'access';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/access/me',
      tag,
      summary: 'Who is calling, on whose fleet, fenced to which group, and the fleets this person may open a session on',
      auth: 'operator',
      groupSessions: true,
      response: AccessMe,
    },
    async (_input, req, res) => sendOk(res, await access.me(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/access/session',
      tag,
      summary:
        "Open a session on an operator's fleet that gave the caller a group: a bearer token that sees only the group's machines, with the group's scopes the caller's credential holds",
      description: 'The group is looked up on every request: a changed group applies at once; a removed assignment or crew membership ends the session (401).',
      auth: 'operator',
      body: SessionBody,
      response: AccessSession,
      // 403: the caller's credential holds none of the scopes the group grants
      errors: [403, 404],
    },
    async ({ body }, req, res) => sendOk(res, await access.openSession(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/access/groups',
      tag,
      summary: "The operator's access groups, oldest first, each with its machines, scopes and people",
      auth: 'operator',
      scopes: ['machines:read'],
      response: AccessGroupList,
    },
    async (_input, req, res) => sendOk(res, await access.groups(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/access/groups',
      tag,
      summary: "Create an access group of the operator's machines; scopes default to read-only",
      auth: 'operator',
      scopes: ['machines:write'],
      body: GroupBody,
      response: AccessGroup,
      errors: [409],
    },
    async ({ body }, req, res) => sendOk(res, await access.createGroup(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/access/groups/:groupId',
      tag,
      summary: 'Replace an access group: name, the whole machine list, scopes (kept when left out)',
      auth: 'operator',
      scopes: ['machines:write'],
      params: GroupParams,
      body: GroupBody,
      response: AccessGroup,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await access.updateGroup(principalOf(req), params.groupId, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/access/assignment',
      tag,
      summary: "The group a person (a member of one of the operator's crews) holds on the operator's fleet; groupId null: none",
      auth: 'operator',
      scopes: ['machines:read'],
      query: AssignmentQuery,
      response: Assignment,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await access.assignment(principalOf(req), query.username)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/access/assignment',
      tag,
      summary: "Give a person of the operator's crews a group on the fleet, or take it away (groupId null)",
      auth: 'operator',
      scopes: ['machines:write'],
      body: AssignmentBody,
      response: Assignment,
      errors: [404],
    },
    async ({ body }, req, res) => sendOk(res, await access.assign(principalOf(req), body)),
  );

  return r;
}
