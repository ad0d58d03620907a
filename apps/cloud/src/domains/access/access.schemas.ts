import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { SCOPES } from '../../http/scopes.ts';
import { emailLine } from '../auth/auth.schemas.ts';
import { MachineNo } from '../machines/machines.schemas.ts';
import { GROUP_SCOPES } from './access.rules.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
const email = () => emailLine().transform((e) => e.toLowerCase());
const groupScope = z.enum(GROUP_SCOPES);
const scope = z.enum(SCOPES);

export const GroupBody = z.strictObject({
  name: safeString({ trim: true }).min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** The operator's machines the group may act on; the whole list (an edit replaces it). */
  machineNos: z.array(MachineNo).max(500, 'at most 500 machines'),
  /** What its people may do there; default: look, not touch. */
  scopes: z.array(groupScope).min(1, 'at least one scope').optional(),
});
export type GroupBody = z.infer<typeof GroupBody>;

export const GroupParams = z.object({ groupId: z.string().min(1).max(64) });

export const AccessGroup = z.object({
  id: z.string(),
  name: z.string(),
  machineNos: z.array(z.string()),
  scopes: z.array(groupScope),
  usernames: z.array(z.string()).describe('the people assigned to this group'),
  createdAt: z.string().describe(TIMESTAMP),
  updatedAt: z.string().describe(TIMESTAMP),
});
export type AccessGroup = z.infer<typeof AccessGroup>;
export const AccessGroupList = z.array(AccessGroup);

export const AssignmentQuery = z.object({ username: email() });

export const AssignmentBody = z.strictObject({
  /** The person: the email of their account, a member of one of the operator's crews. */
  username: email(),
  /** The group they get on the operator's fleet; null takes their access away. */
  groupId: z.string().min(1).max(64).nullable(),
});
export type AssignmentBody = z.infer<typeof AssignmentBody>;

export const Assignment = z.object({
  username: z.string(),
  groupId: z.string().nullable().describe('null: no access to the fleet (they cannot open a session)'),
  groupName: z.string().nullable(),
  machineNos: z.array(z.string()),
  scopes: z.array(groupScope),
  assignedAt: z.string().nullable().describe(TIMESTAMP),
});
export type Assignment = z.infer<typeof Assignment>;

export const SessionBody = z.strictObject({
  /** Whose fleet: an operator that assigned the caller a group. */
  operatorEmail: email(),
});
export type SessionBody = z.infer<typeof SessionBody>;

const GroupSummary = z.object({ id: z.string(), name: z.string(), machineNos: z.array(z.string()), scopes: z.array(scope) });

export const AccessSession = z.object({
  token: z.string().describe('Bearer token of the session; shown once'),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().describe('Seconds'),
  scope: z.string().describe('Space-separated: what the group grants and the opening credential holds'),
  operator: z.object({ email: z.string(), name: z.string() }),
  group: GroupSummary,
});
export type AccessSession = z.infer<typeof AccessSession>;

export const AccessMe = z.object({
  username: z.string().describe('the person calling'),
  operatorEmail: z.string().describe('whose fleet this credential acts on'),
  authMethod: z.string(),
  restricted: z.boolean().describe('true for an access-group session: only the group machines, only the group scopes'),
  group: GroupSummary.nullable(),
  scopes: z.array(scope),
  grants: z
    .array(z.object({ operatorEmail: z.string(), operatorName: z.string(), groupId: z.string(), groupName: z.string() }))
    .describe('the fleets this person may open a session on (POST /api/v1/access/session)'),
});
export type AccessMe = z.infer<typeof AccessMe>;
