import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { hashSecret, mintSecret, verifySecret } from '../../crypto/secrets.ts';
import type { CrewInviteRow, CrewMemberRow, CrewRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { CrewOfMember } from './crews.repo.ts';
import { INVITE_TTL_MS, canManage, inviteStateAt, isCrewRole, isInviteState, leavesNoOwner, mayAssign, mayRemove, type CrewRole } from './crews.rules.ts';
import type { CreateCrewBody, Crew, CrewInvite, CrewInviteView, CrewMember, InviteBody } from './crews.schemas.ts';

export interface CrewsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

const crewNotFound = () => notFound('Crew');
const managersOnly = () => new AppError('forbidden', 'Crew owner or admin required');

/**
 * Crews and their invitations (spec 1 §4.9; docs/decisions/crews.md). People are operator accounts, known
 * by their email (`principal.operatorEmail`); a crew is visible only to its members (others get 404).
 */
export class CrewsService {
  constructor(private readonly deps: CrewsDeps) {}

  async create(p: Principal, body: CreateCrewBody): Promise<Crew> {
    const now = this.deps.clock.now();
    const id = newId('crw', now);
    const email = emailOf(p);
    await this.deps.store.transaction(async (tx) => {
      await tx.crews.insertCrew({ id, name: body.name, created_by: email, default_for: null, created_at: now });
      await tx.crews.addMember({ crew_id: id, email, role: 'owner', joined_at: now });
      await this.deps.audit.record(tx, p, 'crews.create', `crew:${id}`);
    });
    return this.get(p, id);
  }

  /** The caller's crews; on their first visit their default crew is created, owned by them. */
  async mine(p: Principal): Promise<Crew[]> {
    const email = emailOf(p);
    if (!(await this.deps.store.repos.crews.defaultOf(email))) await this.deps.store.transaction((tx) => this.ensureDefault(tx, p));
    return (await this.deps.store.repos.crews.ofMember(email)).map(crewView);
  }

  /**
   * The caller's default crew, created in the caller's transaction (owned by them, audited) when they
   * have none yet; it is created once per email, so after leaving it it is not made again. The one
   * place the API makes a default crew (`mine`, and planning a restock run of one's own machine); only
   * the sandbox seed writes alice's directly, with a fixed id.
   */
  async ensureDefault(tx: Repos, p: Principal): Promise<CrewRow> {
    const email = emailOf(p);
    const now = this.deps.clock.now();
    const id = newId('crw', now);
    // a concurrent first visit may have made it already: the unique default_for keeps one
    if (await tx.crews.insertCrew({ id, name: 'My crew', created_by: email, default_for: email, created_at: now })) {
      await tx.crews.addMember({ crew_id: id, email, role: 'owner', joined_at: now });
      await this.deps.audit.record(tx, p, 'crews.create_default', `crew:${id}`);
    }
    return (await tx.crews.defaultOf(email))!;
  }

  async get(p: Principal, crewId: string): Promise<Crew> {
    const row = await this.deps.store.repos.crews.forMember(crewId, emailOf(p));
    if (!row) throw crewNotFound();
    return crewView(row);
  }

  async members(p: Principal, crewId: string): Promise<CrewMember[]> {
    const repo = this.deps.store.repos.crews;
    if (!(await repo.member(crewId, emailOf(p)))) throw crewNotFound();
    return (await repo.members(crewId)).map(memberView);
  }

  /** Invites `email` with `role`; answers the one-time token once (only its salted hash is kept). */
  async invite(p: Principal, crewId: string, body: InviteBody): Promise<CrewInvite> {
    const now = this.deps.clock.now();
    const id = newId('cinv', now);
    const token = mintSecret();
    const expiresAt = now + INVITE_TTL_MS;
    await this.deps.store.transaction(async (tx) => {
      const actor = await actorIn(tx, crewId, p);
      if (!canManage(actor) || !mayAssign(actor, null, body.role)) throw managersOnly();
      if (await tx.crews.member(crewId, body.email)) throw conflict(`${body.email} is already a member of this crew`);
      await tx.crews.expireDue(crewId, now);
      for (const old of await tx.crews.revokePending(crewId, body.email)) await this.deps.audit.record(tx, p, 'crews.invite_revoke', `crew_invite:${old}`);
      await tx.crews.insertInvite({
        id,
        crew_id: crewId,
        email: body.email,
        role: body.role,
        token_hash: hashSecret(token),
        invited_by: emailOf(p),
        state: 'pending',
        created_at: now,
        expires_at: expiresAt,
        accepted_at: null,
      });
      await this.deps.audit.record(tx, p, 'crews.invite', `crew_invite:${id}`);
    });
    return {
      inviteId: id,
      crewId,
      email: body.email,
      role: body.role,
      state: 'pending',
      expiresAt: formatTimestamp(expiresAt)!,
      token,
      acceptPath: `/api/v1/crew/accept-invite/${id}`,
    };
  }

  /**
   * Accepts an invitation: the token must match (constant time) and the caller must be the invited
   * email. Accepting again by the same person while still a member answers the membership unchanged.
   */
  async accept(p: Principal, inviteId: string, token: string): Promise<CrewMember> {
    const email = emailOf(p);
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const inv = await tx.crews.lockInvite(inviteId);
      // an unknown id and a wrong token read the same: nothing to learn without the token
      if (!inv || !verifySecret(token, inv.token_hash)) throw notFound('Invitation');
      if (inv.email !== email) throw new AppError('forbidden', 'This invitation is for another email address');
      const stored = isInviteState(inv.state) ? inv.state : 'revoked';
      const state = inviteStateAt(stored, inv.expires_at, now);
      switch (state) {
        case 'accepted': {
          const m = await tx.crews.member(inv.crew_id, email);
          if (!m) throw new AppError('gone', 'Invitation already used');
          return memberView(m);
        }
        case 'revoked':
          throw new AppError('gone', 'Invitation revoked');
        case 'expired':
          throw new AppError('gone', 'Invitation expired');
        case 'pending':
          break;
      }
      await tx.crews.lockCrew(inv.crew_id);
      await tx.crews.addMember({ crew_id: inv.crew_id, email, role: inv.role, joined_at: now });
      await tx.crews.markAccepted(inv.id, now);
      await this.deps.audit.record(tx, p, 'crews.invite_accept', `crew_invite:${inv.id}`);
      return memberView((await tx.crews.member(inv.crew_id, email))!);
    });
  }

  /** Changes a member's role (owner/admin); only an owner touches the owner role; the last owner stays one. */
  async setRole(p: Principal, crewId: string, memberEmail: string, role: CrewRole): Promise<CrewMember> {
    return this.deps.store.transaction(async (tx) => {
      const actor = await actorIn(tx, crewId, p);
      if (!canManage(actor)) throw managersOnly();
      const target = await tx.crews.member(crewId, memberEmail);
      if (!target) throw notFound('Crew member');
      const from = roleOf(target);
      if (!mayAssign(actor, from, role)) throw new AppError('forbidden', 'Only an owner may grant or take away the owner role');
      if (leavesNoOwner(await tx.crews.owners(crewId), from, role)) throw conflict('The last owner of a crew cannot be demoted');
      if (from !== role) {
        await tx.crews.setRole(crewId, memberEmail, role);
        await this.deps.audit.record(tx, p, 'crews.member_role', `crew:${crewId}:${memberEmail}`);
      }
      return memberView({ ...target, role });
    });
  }

  /** The crew's invitations, newest first (owner/admin; members 403). */
  async invites(p: Principal, crewId: string): Promise<CrewInviteView[]> {
    const repo = this.deps.store.repos.crews;
    const me = await repo.member(crewId, emailOf(p));
    if (!me) throw crewNotFound();
    if (!canManage(roleOf(me))) throw managersOnly();
    const now = this.deps.clock.now();
    return (await repo.invitesOf(crewId)).map((inv) => inviteView(inv, now));
  }

  /** Cancels a pending invitation (owner/admin; an owner invitation only by an owner); 409 once it is no longer pending. */
  async cancelInvite(p: Principal, crewId: string, inviteId: string): Promise<CrewInviteView> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const actor = await actorIn(tx, crewId, p);
      if (!canManage(actor)) throw managersOnly();
      const inv = await tx.crews.lockInvite(inviteId);
      if (!inv || inv.crew_id !== crewId) throw notFound('Invitation');
      const role = isCrewRole(inv.role) ? inv.role : 'member';
      if (!mayAssign(actor, null, role)) throw new AppError('forbidden', 'Only an owner may cancel an owner invitation');
      const state = inviteStateAt(isInviteState(inv.state) ? inv.state : 'revoked', inv.expires_at, now);
      if (state !== 'pending' || !(await tx.crews.revokeInvite(inv.id))) throw conflict(`The invitation is ${state}, not pending`);
      await this.deps.audit.record(tx, p, 'crews.invite_revoke', `crew_invite:${inv.id}`);
      return inviteView({ ...inv, state: 'revoked' }, now);
    });
  }

  /** Removes a member (owner/admin; anyone may leave); the last owner cannot be removed. */
  async remove(p: Principal, crewId: string, memberEmail: string): Promise<CrewMember> {
    return this.deps.store.transaction(async (tx) => {
      const actor = await actorIn(tx, crewId, p);
      const target = await tx.crews.member(crewId, memberEmail);
      if (!target) {
        if (!canManage(actor)) throw managersOnly();
        throw notFound('Crew member');
      }
      const from = roleOf(target);
      if (!mayRemove(actor, from, memberEmail === emailOf(p))) {
        throw canManage(actor) ? new AppError('forbidden', 'Only an owner may remove an owner') : managersOnly();
      }
      if (leavesNoOwner(await tx.crews.owners(crewId), from, null)) throw conflict('The last owner of a crew cannot be removed');
      await tx.crews.removeMember(crewId, memberEmail);
      await this.deps.audit.record(tx, p, 'crews.member_remove', `crew:${crewId}:${memberEmail}`);
      return memberView(target);
    });
  }
}

function inviteView(inv: CrewInviteRow, now: number): CrewInviteView {
  const stored = isInviteState(inv.state) ? inv.state : 'revoked';
  return {
    inviteId: inv.id,
    crewId: inv.crew_id,
    email: inv.email,
    role: isCrewRole(inv.role) ? inv.role : 'member',
    state: inviteStateAt(stored, inv.expires_at, now),
    invitedBy: inv.invited_by,
    createdAt: formatTimestamp(inv.created_at)!,
    expiresAt: formatTimestamp(inv.expires_at)!,
    acceptedAt: formatTimestamp(inv.accepted_at),
  };
}

export function emailOf(p: Principal): string {
  if (!p.operatorEmail) throw badRequest('This credential has no operator email to act as a crew member');
  return p.operatorEmail.toLowerCase();
}

/** Locks the crew and answers the caller's role in it; 404 when there is no such crew or they are not in it. */
async function actorIn(tx: Repos, crewId: string, p: Principal): Promise<CrewRole> {
  if (!(await tx.crews.lockCrew(crewId))) throw crewNotFound();
  const me = await tx.crews.member(crewId, emailOf(p));
  if (!me) throw crewNotFound();
  return roleOf(me);
}

function roleOf(m: { role: string }): CrewRole {
  return isCrewRole(m.role) ? m.role : 'member';
}

function crewView(c: CrewOfMember | (CrewRow & { role: string; member_count: number })): Crew {
  return {
    id: c.id,
    name: c.name,
    isDefault: c.default_for !== null,
    createdBy: c.created_by,
    createdAt: formatTimestamp(Number(c.created_at))!,
    myRole: roleOf(c),
    memberCount: Number(c.member_count),
  };
}

function memberView(m: CrewMemberRow): CrewMember {
  return { crewId: m.crew_id, email: m.email, role: roleOf(m), joinedAt: formatTimestamp(Number(m.joined_at))! };
}
