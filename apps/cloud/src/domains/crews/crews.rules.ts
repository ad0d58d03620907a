/** The pure rules of crews: who may do what, and what an invitation's state is at a given moment. */

export const CREW_ROLES = ['owner', 'admin', 'member'] as const;
export type CrewRole = (typeof CREW_ROLES)[number];

export const INVITE_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InviteState = (typeof INVITE_STATES)[number];

/** How long an invitation's token may be used: 7 days from when it was issued. */
export const INVITE_TTL_MS = 7 * 86_400_000;

/** Owners and admins manage the crew (invite, change roles, remove); members only read it. */
export function canManage(role: CrewRole): boolean {
  return role === 'owner' || role === 'admin';
}

/** Only an owner may grant, take away or touch the owner role; an admin manages admins and members. */
export function mayAssign(actor: CrewRole, from: CrewRole | null, to: CrewRole): boolean {
  if (!canManage(actor)) return false;
  if (actor === 'owner') return true;
  return from !== 'owner' && to !== 'owner';
}

/**
 * May `actor` remove a member holding `target`? Anyone may leave (remove themselves); otherwise
 * owners remove anyone, admins remove admins and members.
 */
export function mayRemove(actor: CrewRole, target: CrewRole, self: boolean): boolean {
  if (self) return true;
  if (!canManage(actor)) return false;
  return actor === 'owner' || target !== 'owner';
}

/** Would this change leave the crew without an owner? (`owners`: how many owners it has now.) */
export function leavesNoOwner(owners: number, from: CrewRole, to: CrewRole | null): boolean {
  return from === 'owner' && to !== 'owner' && owners <= 1;
}

/** An invitation's state at `now`: a pending one past its expiry is expired. */
export function inviteStateAt(stored: InviteState, expiresAt: number, now: number): InviteState {
  return stored === 'pending' && now >= expiresAt ? 'expired' : stored;
}

export function isCrewRole(s: string): s is CrewRole {
  return (CREW_ROLES as readonly string[]).includes(s);
}

export function isInviteState(s: string): s is InviteState {
  return (INVITE_STATES as readonly string[]).includes(s);
}
