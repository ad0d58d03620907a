import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { emailLine } from '../auth/auth.schemas.ts';
import { CREW_ROLES, INVITE_STATES } from './crews.rules.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
const id = z.string().min(1).max(64);
const email = () => emailLine().transform((e) => e.toLowerCase());
const role = z.enum(CREW_ROLES);

export const CreateCrewBody = z.strictObject({
  name: safeString({ trim: true }).min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
});
export type CreateCrewBody = z.infer<typeof CreateCrewBody>;

export const CrewParams = z.object({ crewId: id });
export const MemberParams = z.object({ crewId: id, memberEmail: email() });
export const InviteParams = z.object({ inviteId: id });
export const AcceptQuery = z.object({ token: z.string().min(1, 'token is required').max(256) });

export const InviteBody = z.strictObject({
  email: email(),
  /** The role the invitation grants; only an owner may invite an owner. */
  role: role.default('member'),
});
export type InviteBody = z.infer<typeof InviteBody>;

export const RoleBody = z.strictObject({ role });
export type RoleBody = z.infer<typeof RoleBody>;

export const Crew = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean().describe("true for the caller's default crew, created on their first GET /crew/mine"),
  createdBy: z.string().describe('email of the operator account that created it'),
  createdAt: z.string().describe(TIMESTAMP),
  myRole: role.describe("the caller's role in this crew"),
  memberCount: z.number().int(),
});
export type Crew = z.infer<typeof Crew>;
export const CrewList = z.array(Crew);

export const CrewMember = z.object({
  crewId: z.string(),
  email: z.string(),
  role,
  joinedAt: z.string().describe(TIMESTAMP),
});
export type CrewMember = z.infer<typeof CrewMember>;
export const CrewMemberList = z.array(CrewMember);

export const CrewInvite = z.object({
  inviteId: z.string(),
  crewId: z.string(),
  email: z.string(),
  role,
  state: z.enum(INVITE_STATES),
  expiresAt: z.string().describe(TIMESTAMP),
  token: z.string().describe('the one-time token: shown only in this answer, never again; send it as ?token= to accept-invite'),
  acceptPath: z.string().describe('where the invited person accepts (POST, with ?token=)'),
});
export type CrewInvite = z.infer<typeof CrewInvite>;

export const InviteOfCrewParams = z.object({ crewId: id, inviteId: id });

/** An invitation as its crew's managers see it later: never the token. */
export const CrewInviteView = z.object({
  inviteId: z.string(),
  crewId: z.string(),
  email: z.string(),
  role,
  state: z.enum(INVITE_STATES).describe('as of now: a pending invitation past its expiry reads expired'),
  invitedBy: z.string(),
  createdAt: z.string().describe(TIMESTAMP),
  expiresAt: z.string().describe(TIMESTAMP),
  acceptedAt: z.string().nullable().describe(TIMESTAMP),
});
export type CrewInviteView = z.infer<typeof CrewInviteView>;
export const CrewInviteList = z.array(CrewInviteView);
