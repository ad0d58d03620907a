import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { SCOPES, formatScopes, parseScopes } from '../../http/scopes.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { mintAccessToken } from '../auth/credentials.ts';
import type { GroupView } from './access.repo.ts';
import { ACCESS_SESSION_TTL_SECONDS, DEFAULT_GROUP_SCOPES, GROUP_SCOPES, sessionScopes, type GroupScope } from './access.rules.ts';
import type { AccessGroup, AccessMe, AccessSession, Assignment, AssignmentBody, GroupBody, SessionBody } from './access.schemas.ts';

export interface AccessDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

const groupNotFound = () => notFound('Access group');
const notOnePerson = (username: string) =>
  badRequest(undefined, [{ path: 'body.username', message: `${username} is in none of your crews: invite them to one first` }]);

function groupScopes(stored: string): GroupScope[] {
  return parseScopes(stored).filter((s): s is GroupScope => (GROUP_SCOPES as readonly string[]).includes(s));
}

function toGroup(g: GroupView): AccessGroup {
  return {
    id: g.id,
    name: g.name,
    machineNos: g.machine_nos,
    scopes: groupScopes(g.scopes),
    usernames: g.usernames,
    createdAt: formatTimestamp(g.created_at) ?? '',
    updatedAt: formatTimestamp(g.updated_at) ?? '',
  };
}

/**
 * Access groups (spec 1 §4.2; docs/decisions/access.md): an operator names sets of its machines with the
 * scopes its people may use there, gives each person (a member of one of its crews) one group, and that
 * person opens a session on the fleet that sees only the group's machines. The fence itself is enforced by
 * the ownership rule (domains/machines/ownership.ts) and the route gate (RouteDoc.groupSessions).
 */
export class AccessService {
  constructor(private readonly deps: AccessDeps) {}

  /** The caller as the access rules see them, and the fleets they may open a session on. */
  async me(p: Principal): Promise<AccessMe> {
    const username = p.fence?.username ?? p.operatorEmail.toLowerCase();
    const repo = this.deps.store.repos.access;
    const group = p.fence ? (await repo.groupsOf(p.operatorId, p.fence.groupId))[0] : undefined;
    const grants = p.fence ? [] : await repo.grantsOf(username);
    return {
      username,
      operatorEmail: p.operatorEmail,
      authMethod: p.authMethod,
      restricted: p.fence !== null,
      group: p.fence
        ? { id: p.fence.groupId, name: p.fence.groupName, machineNos: [...p.fence.machineNos].sort(), scopes: group ? groupScopes(group.scopes) : [] }
        : null,
      scopes: SCOPES.filter((s) => p.scopes.has(s)),
      grants: grants.map((g) => ({ operatorEmail: g.operator_email, operatorName: g.operator_name, groupId: g.group_id, groupName: g.group_name })),
    };
  }

  async groups(p: Principal): Promise<AccessGroup[]> {
    return (await this.deps.store.repos.access.groupsOf(p.operatorId)).map(toGroup);
  }

  async createGroup(p: Principal, body: GroupBody): Promise<AccessGroup> {
    const now = this.deps.clock.now();
    const id = newId('acg', now);
    await this.deps.store.transaction(async (tx) => {
      const machines = await ownedOrRefuse(tx, p.operatorId, body.machineNos);
      const scopes = formatScopes(body.scopes ?? DEFAULT_GROUP_SCOPES);
      if (!(await tx.access.insertGroup({ id, operator_id: p.operatorId, name: body.name, scopes, created_at: now, updated_at: now }))) {
        throw conflict(`An access group named ${body.name} already exists`);
      }
      await tx.access.setMachines(id, machines);
      await this.deps.audit.record(tx, p, 'access.group_create', `access_group:${id}`);
    });
    return this.group(p, id);
  }

  /** Replaces the group's name, machines and scopes; its people's sessions see the change on their next request. */
  async updateGroup(p: Principal, id: string, body: GroupBody): Promise<AccessGroup> {
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const current = await tx.access.lockGroup(p.operatorId, id);
      if (!current) throw groupNotFound();
      const machines = await ownedOrRefuse(tx, p.operatorId, body.machineNos);
      const scopes = formatScopes(body.scopes ?? groupScopes(current.scopes));
      if (!(await tx.access.updateGroup(id, { name: body.name, scopes, updated_at: now }))) {
        throw conflict(`An access group named ${body.name} already exists`);
      }
      await tx.access.setMachines(id, machines);
      await this.deps.audit.record(tx, p, 'access.group_update', `access_group:${id}`);
    });
    return this.group(p, id);
  }

  private async group(p: Principal, id: string): Promise<AccessGroup> {
    const g = (await this.deps.store.repos.access.groupsOf(p.operatorId, id))[0];
    if (!g) throw groupNotFound();
    return toGroup(g);
  }

  /** The group a person holds on the caller's fleet; 404 for someone who is none of the operator's people. */
  async assignment(p: Principal, username: string): Promise<Assignment> {
    const repo = this.deps.store.repos.access;
    if (!(await repo.isPersonOf(p.operatorEmail, username))) throw notFound('User');
    return this.assignmentView(repo, p.operatorId, username);
  }

  /** Gives a person a group on the caller's fleet (or, with groupId null, takes it away). */
  async assign(p: Principal, body: AssignmentBody): Promise<Assignment> {
    if (body.username === p.operatorEmail.toLowerCase()) {
      throw badRequest(undefined, [{ path: 'body.username', message: "the operator's own account is never fenced" }]);
    }
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.access.isPersonOf(p.operatorEmail, body.username))) throw notOnePerson(body.username);
      if (body.groupId === null) {
        await tx.access.unassign(p.operatorId, body.username);
      } else {
        if (!(await tx.access.lockGroup(p.operatorId, body.groupId))) throw groupNotFound();
        await tx.access.assign(p.operatorId, body.username, body.groupId, now);
      }
      await this.deps.audit.record(tx, p, body.groupId === null ? 'access.unassign' : 'access.assign', `access_assignment:${body.username}`);
    });
    return this.assignmentView(this.deps.store.repos.access, p.operatorId, body.username);
  }

  private async assignmentView(repo: Repos['access'], operatorId: string, username: string): Promise<Assignment> {
    const a = await repo.assignment(operatorId, username);
    const g = a ? (await repo.groupsOf(operatorId, a.group_id))[0] : undefined;
    return {
      username,
      groupId: g?.id ?? null,
      groupName: g?.name ?? null,
      machineNos: g?.machine_nos ?? [],
      scopes: g ? groupScopes(g.scopes) : [],
      assignedAt: a ? formatTimestamp(a.assigned_at) : null,
    };
  }

  /**
   * Opens the caller's session on `operatorEmail`'s fleet: a bearer token that sees only the group's
   * machines, with the group's scopes the caller's own credential also holds. 404 unless that operator gave
   * the caller a group (the same answer for an unknown operator: an email alone teaches nothing).
   */
  async openSession(p: Principal, body: SessionBody): Promise<AccessSession> {
    const username = p.operatorEmail.toLowerCase();
    const now = this.deps.clock.now();
    const grant = (await this.deps.store.repos.access.grantsOf(username)).find((g) => g.operator_email.toLowerCase() === body.operatorEmail);
    if (!grant) throw notFound('Access grant');
    const group = (await this.deps.store.repos.access.groupsOf(grant.operator_id, grant.group_id))[0];
    if (!group) throw notFound('Access grant');
    const scopes = sessionScopes(groupScopes(group.scopes), p.scopes);
    if (!scopes.length) throw new AppError('forbidden', 'This credential holds none of the scopes the group grants');
    const token = mintAccessToken();
    const sessionId = newId('acs', now);
    const expiresAt = now + ACCESS_SESSION_TTL_SECONDS * 1000;
    await this.deps.store.transaction(async (tx) => {
      await tx.access.deleteEndedSessions(grant.operator_id, now);
      await tx.auth.deleteExpiredTokensOf(grant.operator_id, now);
      await tx.access.insertSession({ id: sessionId, operator_id: grant.operator_id, username, created_at: now, expires_at: expiresAt });
      await tx.auth.insertAccessToken({
        token_hash: sha256Hex(token),
        operator_id: grant.operator_id,
        kind: 'access',
        credential_id: sessionId,
        scopes: formatScopes(scopes),
        created_at: now,
        expires_at: expiresAt,
      });
      await this.deps.audit.record(tx, p, 'access.session', `access_session:${sessionId}/operator:${grant.operator_id}`);
    });
    return {
      token,
      tokenType: 'Bearer',
      expiresIn: ACCESS_SESSION_TTL_SECONDS,
      scope: formatScopes(scopes),
      operator: { email: grant.operator_email, name: grant.operator_name },
      group: { id: group.id, name: group.name, machineNos: group.machine_nos, scopes },
    };
  }

  /**
   * Ends an access-group session now (the console's "Back to my fleet" and its sign-out): its bearer token
   * stops working. Anything that is not a live access token is left alone; audited as the person who ends it.
   */
  async closeSession(p: Principal, token: string): Promise<void> {
    if (token.length > 512) return;
    await this.deps.store.transaction(async (tx) => {
      const sessionId = await tx.auth.deleteAccessSessionToken(sha256Hex(token));
      if (sessionId) await this.deps.audit.record(tx, p, 'access.session_end', `access_session:${sessionId}`);
    });
  }
}

/** The machines' ids, all of them the operator's; 400 naming the others (nothing written). */
async function ownedOrRefuse(tx: Repos, operatorId: string, machineNos: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(machineNos)];
  const owned = await tx.access.ownedMachines(operatorId, wanted);
  const have = new Set(owned.map((m) => m.machine_no));
  const others = wanted.filter((n) => !have.has(n));
  if (others.length) throw badRequest(undefined, [{ path: 'body.machineNos', message: `not machines of your fleet: ${others.slice(0, 20).join(', ')}` }]);
  return owned.map((m) => m.id);
}
