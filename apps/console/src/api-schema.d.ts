/**
 * The cloud's operator API as types, generated from its /openapi.json by scripts/gen-console-api.ts — do not edit.
 * scripts/console-api.test.ts fails when this file and the document the service serves differ.
 */

export interface paths {
  '/advertise/poster/{machineNo}.png': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A machine's house poster: “Advertise on this screen” with its advertise QR (1080×1920 PNG)
     * @description Buyer-facing, no key (spec 1 §4.7). The QR encodes the same address as the machine’s advertise QR (`<base>/advertise?machine=<no>&qr=<qrId>`). Pads the tail of every attract loop.
     */
    get: operations['getAdvertisePoster'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access/assignment': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The group a person (a member of one of the operator's crews) holds on the operator's fleet; groupId null: none
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAccessAssignment'];
    /**
     * Give a person of the operator's crews a group on the fleet, or take it away (groupId null)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putAccessAssignment'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The operator's access groups, oldest first, each with its machines, scopes and people
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAccessGroups'];
    put?: never;
    /**
     * Create an access group of the operator's machines; scopes default to read-only
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAccessGroups'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access/groups/{groupId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Replace an access group: name, the whole machine list, scopes (kept when left out)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putAccessGroupsByGroupId'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who is calling, on whose fleet, fenced to which group, and the fleets this person may open a session on
     * @description Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getAccessMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/access/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open a session on an operator's fleet that gave the caller a group: a bearer token that sees only the group's machines, with the group's scopes the caller's credential holds
     * @description Not available to access-group sessions (403).
     *
     *     The group is looked up on every request: a changed group applies at once; a removed assignment or crew membership ends the session (401).
     */
    post: operations['postAccessSession'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/accounts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an operator account; answers it with a standard API key shown this once
     * @description Requires scope: accounts:admin.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAccounts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Paid purchases with a line of yours (admins: every purchase), newest first, each with your line; the approvals queue is lineStatus=pending_approval
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAdPurchases'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One purchase, with your line
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAdPurchasesById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases/{id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve your line: its campaign goes on air at once while other operators still review (admins: every pending line, or operatorEmail’s)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAdPurchasesByIdApprove'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases/{id}/refund': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refund your rejected line’s amount to the buyer through the payment processor, once (admins: operatorEmail’s line, or every line owing one)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     Idempotent: a line already refunded is answered as it is, with no second refund. The processor’s refusal is recorded on the line (`refund.status` failed, with its reason) and answered 502; calling again retries. 503: the processor is unreachable or not configured — nothing is recorded, calling again is safe. 409: no refund is owed, or the purchase was paid through another processor.
     */
    post: operations['postAdPurchasesByIdRefund'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases/{id}/reject': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Reject your line with a reason the buyer sees: its draft campaign is removed and its amount is owed back (no money moves until POST …/refund)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAdPurchasesByIdReject'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/ad-purchases/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Payment processor webhook (the endpoint a Stripe deployment registers), signed: Stripe-Signature (a Stripe deployment: the SDK verifies it) or, with the built-in test processor, X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">
     * @description Idempotent on the event id. `payment_intent.succeeded` (Stripe: checkout.session.completed, paid) moves the purchase to pending_approval and drafts one campaign per operator; other types are recorded only. A Stripe event is applied by the place its intent's metadata.webhookPath names (none: the ad payments), whichever of the payment webhooks receives it, and answered with `routedTo` and that place's own answer; a path no place has is acknowledged (200, routedTo null), recorded in the audit log, and changes nothing.
     */
    post: operations['postAdPurchasesWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/agent/fleet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The agent fleet view: target, counts, versions, and one page of machines (operators: their own cabinets)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAgentFleet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/agent/releases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The release registry, in publish order
     * @description Requires an admin credential.
     */
    get: operations['getAgentReleases'];
    put?: never;
    /**
     * Publish a signed release manifest (full admin). The same version with the same signed bytes answers the existing record (created: false); publishing offers it to nobody until a rollout or pin names it
     * @description Requires an admin credential.
     */
    post: operations['postAgentReleases'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/agent/rollout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The fleet-wide rollout (null when none)
     * @description Requires an admin credential.
     */
    get: operations['getAgentRollout'];
    /**
     * Set the one fleet-wide rollout: a published target, phase, canary machine codes, percent of the rest, allowDowngrade (rollback), note
     * @description Requires an admin credential.
     */
    put: operations['putAgentRollout'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/agent/rollout/hold': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Hold the rollout: upgraded cabinets keep the version, nobody else is offered it (409 with none in flight)
     * @description Requires an admin credential.
     */
    post: operations['postAgentRolloutHold'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/agent/rollout/resume': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resume a held rollout (409 with none in flight)
     * @description Requires an admin credential.
     */
    post: operations['postAgentRolloutResume'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alert-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The operator's alert rules, oldest first
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAlertRules'];
    put?: never;
    /**
     * Create an alert rule: event types, the fleet / one machine / an access group, quiet hours, webhook and e-mail delivery
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAlertRules'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alert-rules/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete an alert rule with its alerts; answers it as it was
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    delete: operations['deleteAlertRulesById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The operator's alerts, newest first, by state
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getAlerts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/alerts/{id}/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Close a live alert by hand (409 once closed)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postAlertsByIdResolve'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/credentials': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The operator's API keys and OAuth clients, masked, with scopes and rate limits
     * @description Not available to access-group sessions (403).
     */
    get: operations['getAuthCredentials'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Sign in with email and password; answers an MFA challenge (or enrolment) ticket */
    post: operations['postAuthLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/login/social': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Sign in with a social identity provider's ID token (existing operators only); answers the same MFA challenge */
    post: operations['postAuthLoginSocial'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who the credential belongs to, its scopes and how it signed in
     * @description Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getAuthMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/mfa/enroll/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Confirm TOTP enrolment with a first code; answers the session token and one-time recovery codes */
    post: operations['postAuthMfaEnrollConfirm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/mfa/enroll/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Start TOTP enrolment: a new secret and its otpauth:// URL */
    post: operations['postAuthMfaEnrollStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/mfa/recovery': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Answer the MFA challenge with a one-time recovery code (spent on use) */
    post: operations['postAuthMfaRecovery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/auth/mfa/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Answer the MFA challenge with a TOTP code; answers the session token */
    post: operations['postAuthMfaVerify'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/balance-sheet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Balance sheet at the end of a UTC day: cash and FIFO inventory; tax, host commission and refunds owed; retained earnings
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getBalanceSheet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Campaigns, newest first; filter by status
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCampaigns'];
    put?: never;
    /**
     * Create a campaign (always a draft)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaigns'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One campaign
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCampaignsById'];
    /**
     * Change a campaign: the fields sent replace theirs (not once completed)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putCampaignsById'];
    post?: never;
    /**
     * Delete a draft (other states: 409)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    delete: operations['deleteCampaignsById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/activate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * draft or paused → active; needs a creative and a flight that has not ended
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaignsByIdActivate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * active or paused → completed (final)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaignsByIdComplete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/creative/contentx': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Generate a 9:16 poster from a brief with the studio and attach it (at most 3 per campaign; a studio failure is answered verbatim as 502)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaignsByIdCreativeContentx'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/creative/upload': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Attach an uploaded creative: PNG/JPEG/WebP portrait ≥ 540×960 ≤ 10 MB, or MP4 ≤ 60 MB of at most 16 s; measured from the bytes, refused with the reason
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaignsByIdCreativeUpload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/pause': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * active → paused
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCampaignsByIdPause'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/{id}/report': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Plays, estimated impressions and revenue (spec 1 §2.6)
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCampaignsByIdReport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/campaigns/reports/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every campaign report, plus the loop-wide direct-sold / programmatic / house split of plays
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCampaignsReportsSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a crew; the caller becomes its owner
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCrew'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One crew (its owners, admins and members only; anyone else 404)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrewByCrewId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/invite': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Invite an email to the crew (owner/admin; only an owner invites an owner); answers the one-time token once, valid 7 days
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCrewByCrewIdInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/invites': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The crew's invitations, newest first, each in its state as of now (owner/admin); never a token
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrewByCrewIdInvites'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/invites/{inviteId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Cancel a pending invitation (owner/admin; an owner invitation only by an owner): its token stops working; 409 once accepted, revoked or expired
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    delete: operations['deleteCrewByCrewIdInvitesByInviteId'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The members of a crew, owners first (members only; anyone else 404)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrewByCrewIdMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/members/{memberEmail}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a member (owner/admin; only an owner removes an owner; anyone may leave; 409 for the last owner); answers the removed membership
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    delete: operations['deleteCrewByCrewIdMembersByMemberEmail'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/{crewId}/members/{memberEmail}/role': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Change a member's role (owner/admin; only an owner touches the owner role; 409 for the last owner)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putCrewByCrewIdMembersByMemberEmailRole'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/accept-invite/{inviteId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept an invitation as the invited email: 404 unknown invitation or wrong token, 403 another email, 410 expired, revoked or already used; accepting again answers the membership
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCrewAcceptInviteByInviteId'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crew/mine': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's crews, oldest first, with their role in each; the first visit creates the caller's default crew
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrewMine'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/venues': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Venues, oldest first, each with its machines, when their commission accrues from and every past stay
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrmVenues'];
    put?: never;
    /**
     * Create a host venue; naming machines moves them there (commission from now, or from deploymentDate / the first sale for a machine that already sold and is at no other venue)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postCrmVenues'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/crm/venues/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One venue with its machines, their commission start and rule, and every past stay
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getCrmVenuesById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a venue; machineNos is the whole new list (left-out machines are detached, new ones moved in by the same accrual rule)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    patch: operations['patchCrmVenuesById'];
    trace?: never;
  };
  '/api/v1/dfy/autopilot/tick': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Advance what autonomy allows on the caller’s deals and DFY machines, within the portfolio settings (never past a confirm gate)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyAutopilotTick'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/catalog': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Machine model tiers and prices (every checkout amount comes from here)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyCatalog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/checkpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The checkpoint inbox, newest first
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyCheckpoints'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/checkpoints/{checkpointId}/acknowledge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve an acknowledgement checkpoint (call_outcome, contact_verify, reply_review, mode_resume, cashless_fail); others only by their action (409)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyCheckpointsByCheckpointIdAcknowledge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's deals, newest first
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDeals'];
    put?: never;
    /**
     * Ask for a machine to be placed: a deal at shortlisting
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDeals'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One deal with its timeline (and the payment awaiting the operator, while one does)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/advance': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Advance a pre-ordered deal: to shortlisting, or to outreach when its venue is named
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdAdvance'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/assist/outreach-draft': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Draft an intro e-mail for the deal’s venue from the script library (nothing is sent)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdAssistOutreachDraft'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/autopilot': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Per-deal autopilot override: true, false or null (follow the portfolio)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdAutopilot'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel the deal (the only correction); payments are refunded when it has not shipped
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     A payment taken through the payment processor is refunded through it at once; a refund it refuses or cannot take now stays on the deal's money (GET …/money: refund failed or owed) for POST …/refund to retry. The cancel stands either way.
     */
    post: operations['postDfyDealsByDealIdCancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/install/dispatch': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed install dispatch: creates a dfy_install work order
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdInstallDispatch'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/lease/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm gate: send the lease (resolves lease_send; 409 until terms_approval is resolved)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdLeaseSend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/lease/signature': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The venue signed: lease_sent → signed, or → ready_to_ship when the machine is paid
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdLeaseSignature'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/money': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The deal's money: the payment awaiting the operator, the payments taken and each one's refund (owed → issued, or failed with the processor's reason)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdMoney'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The negotiation: mandate, status, turns and the standing offer
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdNegotiation'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/advise': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Suggest the next move (suggest-only: nothing is stored, the standing offer does not move)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationAdvise'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/approve-terms': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm gate: approve terms near the mandate edge (resolves terms_approval)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationApproveTerms'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/envelope': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set the mandate (a new version; fixed once the negotiation starts)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putDfyDealsByDealIdNegotiationEnvelope'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/graph': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The negotiation graph: parties, term-sheet versions, escalations, outcome, contract
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdNegotiationGraph'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/operator-turn': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * An operator-authored offer: validated but not clamped to the mandate; a move outside it is flagged
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationOperatorTurn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/review': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The terms reviewed: resolves negotiation_review (outreach → lease_chat)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationReview'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm gate: start the negotiation inside its mandate (resolves negotiation_target); the engine makes the opening offer
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/step': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sandbox: the venue persona answers and the engine answers back, until convergence, impasse or the round budget
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationStep'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/negotiation/terms': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record the converged terms for review (raises negotiation_review, and terms_approval near the mandate edge)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdNegotiationTerms'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/order/checkout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm gate: pay for the machine at the catalog price (resolves money; pre-provisions the fleet pin)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     With a real payment processor (Stripe) the confirmed payment is not taken at once: the answer carries `payment` (status awaiting_payment, the catalog amount and `checkoutUrl`) — send the operator to checkoutUrl to pay; the deal moves only when the processor reports the payment (GET the deal to follow it; asking again answers the same payment). 502: the processor declined, 503: it is unavailable — nothing recorded either way. In the sandbox it is paid at once and `payment` is absent.
     */
    post: operations['postDfyDealsByDealIdOrderCheckout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/outreach/preview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The exact per-channel renders of the next touch for the current stage, and whether each channel could carry it now
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdOutreachPreview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/outreach/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start outreach (optional channelOrder) and send the first touch; on a started run, the next touch on demand
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdOutreachStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/preorder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed pre-order payment for a requested deal at shortlisting (shortlisting → pre_ordered)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     With a real payment processor (Stripe) the confirmed payment is not taken at once: the answer carries `payment` (status awaiting_payment, the catalog amount and `checkoutUrl`) — send the operator to checkoutUrl to pay; the deal moves only when the processor reports the payment (GET the deal to follow it; asking again answers the same payment). 502: the processor declined, 503: it is unavailable — nothing recorded either way. In the sandbox it is paid at once and `payment` is absent.
     */
    post: operations['postDfyDealsByDealIdPreorder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/refund': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed refund of every payment of a deal that has not shipped; the deal is cancelled
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     A payment taken through the payment processor is refunded through it; each payment's refund shows on the deal's money (GET …/money: owed → issued, or failed with the processor's reason). 502: the processor refused (recorded failed), 503: it is unavailable (still owed); the deal is cancelled either way, and calling again retries what is owed or failed (never refunding twice).
     */
    post: operations['postDfyDealsByDealIdRefund'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/replay': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The deal's timeline re-applied from the first event (byte for byte the stored deal)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdReplay'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/scout/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept a venue from the scout's shortlist (resolves scout_outreach; shortlisting → outreach)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdScoutAccept'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/shipping/tracking': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record the shipment tracking: ready_to_ship → shipped
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdShippingTracking'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/shortlist': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The directory scored for the deal: foot traffic for its tier, distance to the spot asked for, vertical, reachability
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDealsByDealIdShortlist'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/deals/{dealId}/shortlist/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept a shortlisted venue: the scout result (resolves scout_outreach; shortlisting → outreach)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDealsByDealIdShortlistAccept'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/directory': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's venue directory
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyDirectory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/directory/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import venues into the directory the shortlist is scored from (JSON; a venue of the same name is updated)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyDirectoryImport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/fleets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your pool: balance, total invested, machines funded, fee percentage and the history of investments and allocations
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyFleets'];
    put?: never;
    /**
     * Confirmed investment into your managed pool (50–250,000 USD), charged through the payment processor
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     Answers the investment awaiting payment and the checkoutUrl where it is paid. Once the processor reports the payment, the capital lands in your pool and, whenever the balance covers the target model price, a fully managed deal is funded and the price deducted; the remainder waits.
     */
    post: operations['postDfyFleets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/fleets/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Payment processor webhook for pool investments, signed: Stripe-Signature (a Stripe deployment: the SDK verifies it) or, with the built-in test processor, X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">
     * @description Idempotent on the event id. `payment_intent.succeeded` (data.purchaseId: the investment id) pays the investment, credits the pool and funds deals while the balance covers the target price; other types are recorded only. A Stripe event is applied by the place its intent's metadata.webhookPath names (none: the ad payments), whichever of the payment webhooks receives it, and answered with `routedTo` and that place's own answer; a path no place has is acknowledged (200, routedTo null), recorded in the audit log, and changes nothing.
     */
    post: operations['postDfyFleetsWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/install/orders/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One work order
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyInstallOrdersById'];
    put?: never;
    /**
     * Advance a work order forward only (open → assigned → scheduled → en_route → on_site → completed); on_site begins the install
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyInstallOrdersById'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/inventory/orders/{id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed approval of a supplier order over the monthly cap (resolves inventory_cap)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyInventoryOrdersByIdApprove'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/inventory/orders/{id}/receive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Receive a supplier order: restocks the aisles, completes the refill work order, settles the estimate to actual cost
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyInventoryOrdersByIdReceive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/inventory/suggestions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What a refill of one machine would order (suggestions only: nothing is written)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyInventorySuggestions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/inventory/tick': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Order refills for live DFY machines: aisles at or below 25% of max become a supplier order and a dfy_refill work order
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyInventoryTick'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/mode/{kind}/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The effective mode of a deal or machine: each capability, the level that decided it, the concierge and its fee
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyModeByKindById'];
    /**
     * Capability toggles of a deal or machine: true/false sets, null clears (follow the lower levels), absent keeps
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putDfyModeByKindById'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/mode/{kind}/{id}/concierge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed concierge enrolment (Auto with the ops/install team, 99 USD/month prorated by day) or takeback
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postDfyModeByKindByIdConcierge'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/negotiation/graphs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Per-vertical convergence bands and a per-negotiation rollup of the caller's negotiations
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyNegotiationGraphs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/outreach/callbacks/inbound': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A venue’s reply by text or e-mail (signed like the status callback): STOP opts out at once, anything else raises reply_review */
    post: operations['postDfyOutreachCallbacksInbound'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/outreach/callbacks/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Provider delivery status (signed: X-Outreach-Signature = base64 HMAC-SHA256 of the path then each form field, sorted, name then value); a failure raises contact_verify */
    post: operations['postDfyOutreachCallbacksStatus'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/outreach/unsubscribe/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The unsubscribe link of an outreach e-mail: the address is never e-mailed again */
    get: operations['getDfyOutreachUnsubscribeByToken'];
    put?: never;
    /** RFC 8058 one-click unsubscribe */
    post: operations['postDfyOutreachUnsubscribeByToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/payments/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Payment processor webhook for done-for-you pre-orders and checkouts, signed: Stripe-Signature (a Stripe deployment: the SDK verifies it) or, with the built-in test processor, X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">
     * @description Idempotent on the event id. `payment_intent.succeeded` (data.purchaseId: the payment id of the deal's `payment`) with the payment's own amount and currency (400 otherwise, nothing recorded) moves the deal: a pre-order to pre_ordered, a checkout resolves money (at signed: ready_to_ship). A deal that can no longer take it keeps its stage and the money is owed back (refundOwed). Other types are recorded only. A Stripe event is applied by the place its intent's metadata.webhookPath names (none: the ad payments), whichever of the payment webhooks receives it, and answered with `routedTo` and that place's own answer; a path no place has is acknowledged (200, routedTo null), recorded in the audit log, and changes nothing.
     */
    post: operations['postDfyPaymentsWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/portfolio': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Machines owned, deals in flight, capital, month-to-date revenue, costs, net, yield, inbox
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyPortfolio'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/portfolio/securities': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The portfolio with profit per machine, rollups and mode counts
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyPortfolioSecurities'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/portfolio/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Portfolio settings (defaults until set)
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDfyPortfolioSettings'];
    /**
     * Replace the portfolio settings (spec 3 §2)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    put: operations['putDfyPortfolioSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dfy/preorder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirmed pre-order checkout: a deal paid up front at the catalog price of its tier (refundable until shipped)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     With a real payment processor (Stripe) the confirmed payment is not taken at once: the answer carries `payment` (status awaiting_payment, the catalog amount and `checkoutUrl`) — send the operator to checkoutUrl to pay; the deal moves only when the processor reports the payment (GET the deal to follow it; asking again answers the same payment). 502: the processor declined, 503: it is unavailable — nothing recorded either way. In the sandbox it is paid at once and `payment` is absent. Until then the deal waits at shortlisting (its scout raised); paid, it moves to pre_ordered.
     */
    post: operations['postDfyPreorder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dooh/inventory': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Screen inventory export for supply-side platform onboarding (machines with a screen block only)
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     *
     *     One record per screen: machines that have a screen block (`PUT /api/v1/machines/{machineNo}/screen`) and are not retired; operators see their own, admin credentials every operator’s (filterable by `operatorEmail`). OpenOOH 1.1 venue ids, geo, operating hours, loop shape, impressions per play, spot lengths and media types. Ordered by machineNo.
     */
    get: operations['getDoohInventory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dooh/proof-of-play': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The play ledger of the caller's machines, newest first: one row per creative per machine per showing
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getDoohProofOfPlay'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dooh/venue-types': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The OpenOOH 1.1 venue taxonomy: the ids a screen block’s venueCategoryId is chosen from
     * @description Public reference data (no credential). A screen takes a child or grandchild type; `assignable` says which.
     */
    get: operations['getDoohVenueTypes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/factory/builds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Build records of the key's plant (admin: every plant)
     * @description Requires scope: machines:build.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getFactoryBuilds'];
    put?: never;
    /**
     * Record a cabinet built at the key's plant (machines:build)
     * @description Requires scope: machines:build.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postFactoryBuilds'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/factory/builds/{machineNo}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Record QA sign-off and shipping of a build (machines:build)
     * @description Requires scope: machines:build.
     *
     *     Not available to access-group sessions (403).
     */
    patch: operations['patchFactoryBuildsByMachineNo'];
    trace?: never;
  };
  '/api/v1/finance/entries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Referral, payroll and expense entries, newest day first (reversals included)
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getFinanceEntries'];
    put?: never;
    /**
     * Record a referral, payroll or expense amount for a day, for the business or against one machine or venue
     * @description Requires scope: orders:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postFinanceEntries'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/finance/entries/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One entry, with the reversal that cancels it if any
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getFinanceEntriesById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/finance/entries/{id}/reverse': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Correct an entry: posts its reversing entry (the negated amount on the same day); once per entry
     * @description Requires scope: orders:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postFinanceEntriesByIdReverse'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/fulfill': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Fulfil a sale: walkup (the firmware drops; no command) or api_drop (enqueues a pending command)
     * @description Requires scope: machines:read, or commands:write (which one depends on the request).
     *
     *     Not available to access-group sessions (403).
     *
     *     The scope depends on the body: channel `walkup` needs machines:read, channel `api_drop` needs commands:write.
     */
    post: operations['postFulfill'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventory': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Aisles of all the caller's machines, grouped per machine
     * @description Requires scope: inventory:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getInventory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventory/lots': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * FIFO cost layers, oldest first
     * @description Requires scope: inventory:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getInventoryLots'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventory/machines/{machineNo}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Aisles of one machine
     * @description Requires scope: inventory:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getInventoryMachinesByMachineNo'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventory/machines/{machineNo}/aisles/{aisleNo}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Change an aisle: only the sent fields change
     * @description Requires scope: inventory:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putInventoryMachinesByMachineNoAislesByAisleNo'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/inventory/machines/{machineNo}/restock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set currentStock = maxStock for every aisle, or only the listed ones
     * @description Requires scope: inventory:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postInventoryMachinesByMachineNoRestock'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/kiosk-checkouts/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Payment processor webhook for kiosk checkouts (pay by phone), signed: Stripe-Signature (a Stripe deployment: the SDK verifies it) or, with the built-in test processor, X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">
     * @description Idempotent on the event id. `payment_intent.succeeded` for a checkout awaiting payment, with its amount and currency: the checkout is paid, an order is written paid with its payment and a pending remote dispense command for the aisle is enqueued (externalRef = the checkout id). A payment after the checkout expired or was cancelled is recorded as owed back (an order refund_owed, no command). `payment_intent.expired` (Stripe: checkout.session.expired) of the checkout's own intent ends a checkout still awaiting payment (expired); after a payment it changes nothing. Other types are recorded only. A Stripe event is applied by the place its intent's metadata.webhookPath names (none: the ad payments), whichever of the payment webhooks receives it, and answered with `routedTo` and that place's own answer; a path no place has is acknowledged (200, routedTo null), recorded in the audit log, and changes nothing.
     */
    post: operations['postKioskCheckoutsWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List machines (operators: their own; admin: all, filterable by operatorEmail)
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachines'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One machine, with lastSeen
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNo'];
    /**
     * Alias of PATCH
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putMachinesByMachineNo'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Edit a machine: only sent fields change (placement rules 1–6); changing salesTaxRate restates its un-remitted orders (taxRestatement)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    patch: operations['patchMachinesByMachineNo'];
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/advertise-qr': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * PNG QR code of the buyer chat address with a stable qrId
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoAdvertiseQr'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/agent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A cabinet's agent: version, pin, the offer it gets now (and why), deferral and blocked blocks
     * @description Requires an admin credential.
     */
    get: operations['getMachinesByMachineNoAgent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/agent/pin': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pin a cabinet to a published version (outranks the rollout both ways); reason of 4+ characters
     * @description Requires an admin credential.
     */
    post: operations['postMachinesByMachineNoAgentPin'];
    /**
     * Remove a cabinet's pin (removed: false when it had none)
     * @description Requires an admin credential.
     */
    delete: operations['deleteMachinesByMachineNoAgentPin'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/cabinet-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A cabinet's stored settings and the configuration block it receives (owner or admin)
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoCabinetSettings'];
    /**
     * Change configuration and per-machine feature settings (only sent fields; null restores the default)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putMachinesByMachineNoCabinetSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/commands': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Commands of a machine, newest first; filter by status or find one by externalRef
     * @description Requires scope: commands:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoCommands'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/commands/{commandId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One command
     * @description Requires scope: commands:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoCommandsByCommandId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/commands/{commandId}/ack': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge a drop; success decrements stock and writes a shipped api_drop order; a repeat changes nothing
     * @description Requires scope: commands:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoCommandsByCommandIdAck'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/commands/dispense': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Enqueue a remote drop; a repeated externalRef answers the existing command (duplicate: true)
     * @description Requires scope: commands:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoCommandsDispense'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/commands/pending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Pending commands, oldest first (the device agent's poll; at most 100 per call)
     * @description Requires scope: commands:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoCommandsPending'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/device-credential/arm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open an enrolment arm (owner, admin, or factory key for an unowned cabinet of its plant)
     * @description Requires scope: machines:write, or machines:build (which one depends on the request).
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     *
     *     A factory key (machines:build) may also arm an unowned cabinet that a build record of its plant names.
     */
    post: operations['postMachinesByMachineNoDeviceCredentialArm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/device-credential/disarm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Close the enrolment arm (owner or admin)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoDeviceCredentialDisarm'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/device-credential/mode': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * A machine's own enrolment mode (owner or admin); the stricter of it and the fleet mode applies
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putMachinesByMachineNoDeviceCredentialMode'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/device-credential/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke every generation at once (admin; by and reason mandatory)
     * @description Requires an admin credential.
     */
    post: operations['postMachinesByMachineNoDeviceCredentialRevoke'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/device-credential/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mark the credential due for rotation; the next authenticated gateway response carries generation N+1 in x-device-credential
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoDeviceCredentialRotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/dex': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The machine's audit data for a period as an EVA-DTS 6.1 DEX file (CR LF lines, G85 CRC): VA1/VA3 totals, CA2 cash, DA2 cashless, PA1/PA2 per selection, EA2 failed vends
     * @description Requires scope: orders:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoDex'];
    put?: never;
    /**
     * Reconcile a DEX file read from the machine's board against the cloud's sales: per selection, the board's vend count against the units recorded, with the over/short (writes nothing)
     * @description Requires scope: orders:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoDex'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/geocode/retry': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Geocode the stored address again, or a corrected one
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    post: operations['postMachinesByMachineNoGeocodeRetry'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/identity/reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Identity reset: clears credentials, binding and arms (admin; signer and reason mandatory; may open an arm)
     * @description Requires an admin credential.
     */
    post: operations['postMachinesByMachineNoIdentityReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/operator-qr': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * PNG QR code of the hosted operator view
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoOperatorQr'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/operator-view': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status, sales, aisle rollups and money of one machine
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoOperatorView'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/prize-mechanics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The machine's prize mechanics (on/off, caps), monthly prize budget and what this period has spent of it
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoPrizeMechanics'];
    /**
     * Replace the prize settings: per mechanic (spinToWin, scratchCard, loyaltyStamp) enabled, maxWinsPerDay, maxPrizeValue; a monthlyBudget. A mechanic left out is off; the cabinet learns it on its next prize call
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putMachinesByMachineNoPrizeMechanics'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/screen': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set the advertising screen block (replaces the stored one)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     *
     *     Panel, resolution, venue, address, geo, operating hours, loop shape (default 8 × 15 s), impressions per play (default 1) and the OpenOOH 1.1 venue type (`GET /api/v1/dooh/venue-types`). The machine then appears in the DOOH inventory export.
     */
    put: operations['putMachinesByMachineNoScreen'];
    post?: never;
    /**
     * Clear the advertising screen block: the machine leaves the DOOH inventory (idempotent)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    delete: operations['deleteMachinesByMachineNoScreen'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/{machineNo}/service-code': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Whether a cabinet's service code is set (never the code), its lock and the attempts the cabinet reported (owner or admin)
     * @description Requires scope: machines:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getMachinesByMachineNoServiceCode'];
    /**
     * Set or rotate a cabinet's service code (6–12 digits; stored and delivered to the cabinet as a hash only)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    put: operations['putMachinesByMachineNoServiceCode'];
    post?: never;
    /**
     * Remove a cabinet's service code (its service functions then answer only to a locally configured code)
     * @description Requires scope: machines:write.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    delete: operations['deleteMachinesByMachineNoServiceCode'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/device-credentials/fleet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Credential fleet view
     * @description Requires an admin credential.
     */
    get: operations['getMachinesDeviceCredentialsFleet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/device-credentials/mode': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Fleet-wide enrolment mode (open, armed, closed)
     * @description Requires an admin credential.
     */
    put: operations['putMachinesDeviceCredentialsMode'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/device-credentials/suspicions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Copy suspicions: cabinets that echoed a stale x-device-witness token
     * @description Requires an admin credential.
     */
    get: operations['getMachinesDeviceCredentialsSuspicions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/identity/conflicts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Serials claimed by two boxes
     * @description Requires an admin credential.
     */
    get: operations['getMachinesIdentityConflicts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register a machine by serial, or claim an unclaimed one
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postMachinesRegister'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/machines/serials/unclaimable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Registered or presented serials that break the claim rule
     * @description Requires an admin credential.
     */
    get: operations['getMachinesSerialsUnclaimable'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/drafts/generate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** One studio generation into a creative draft (a new draft without draftToken); at most 3 per purchase */
    post: operations['postMarketplaceDraftsGenerate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/drafts/lookup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A creative draft by its token */
    post: operations['postMarketplaceDraftsLookup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/drafts/upload': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Upload a creative into a draft (a new draft without draftToken): PNG/JPEG/WebP/MP4, portrait, at least 540×960 */
    post: operations['postMarketplaceDraftsUpload'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/kiosks/{machineNo}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The kiosk an advertise QR leads to: whether the QR is its own and whether it is offered for advertising */
    get: operations['getMarketplaceKiosksByMachineNo'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/purchases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Buy: the quote recomputed on the server, a payment intent for it, the status token (shown once) and where to pay
     * @description Fields the service does not read are ignored: an amount or a quote sent along changes nothing.
     */
    post: operations['postMarketplacePurchases'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/purchases/lookup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A purchase’s status by its status token: each operator’s approval, reasons, refunds owed */
    post: operations['postMarketplacePurchasesLookup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/purchases/resubmit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change the ad of a rejected line and send it for approval again, by the status token, while its refund is not issued
     * @description The new ad is a creative of a fresh draft (drafts/upload or drafts/generate without a draftToken); the draft is used up. The line goes back to pending_approval with a new draft campaign for its operator and owes no refund any more. 409: a line not rejected, a line already refunded (the money is gone: buy again), a flight over, a draft already used.
     */
    post: operations['postMarketplacePurchasesResubmit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/quote': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Price a brief now: the reach resolved over opted-in operators’ kiosks, the price list in force (any amount sent is ignored) */
    post: operations['postMarketplaceQuote'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/test-payments/{intentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Sandbox: a payment intent of the built-in test processor (what its checkout page /pay/test/{intentId} shows) */
    get: operations['getMarketplaceTestPaymentsByIntentId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/marketplace/test-payments/{intentId}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Sandbox: pay a test intent — it succeeds and the processor delivers its signed webhook to this service over HTTP */
    post: operations['postMarketplaceTestPaymentsByIntentIdComplete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/meta/state-machines/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A state machine as the API enforces it: states, transitions, triggers, actions and checkpoints */
    get: operations['getMetaStateMachinesByName'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/orders': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Orders, newest first, paged
     * @description Requires scope: orders:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getOrders'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/orders/{orderNumber}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One order
     * @description Requires scope: orders:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getOrdersByOrderNumber'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/orders/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Revenue rollup: count, gross, refunded, tax, net; by channel, pay status and machine
     * @description Requires scope: orders:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getOrdersSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every cashless transaction with terminal, card brand, last four and settlement account; newest first
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPayments'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/payments/cashless/terminals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Which reader is on which machine and which account it feeds
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPaymentsCashlessTerminals'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/payments/cashless/webhook': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Cashless provider webhook, signed: X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>"> */
    post: operations['postPaymentsCashlessWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/payments/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Cashless totals grouped by settlement account
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPaymentsSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/payouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Host statements of one period, one per venue: a line per machine stay (vends, net sales in its accruing window, bps, share) and the total
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPayouts'];
    put?: never;
    /**
     * Record a venue's statement for an ended period as paid: frozen from then on; once per venue and period
     * @description Requires scope: orders:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postPayouts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/pnl': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Profit and loss over UTC days (both ends inclusive): gross, tax, net, fifoCogsCents, host share (hostLines), referrals, payroll, the 2% fee, expenses, operator net and the identity string
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPnl'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/pricing': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The self-serve screen-ad price list in force: rates per machine per month per slot, volume tiers, slot tiers, months */
    get: operations['getPricing'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/prizes/report': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prize game report over a period or from/to (UTC days): scans → entries → plays → wins with step conversion, gross revenue (machine sales), prize cost, budget use per machine and month
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPrizesReport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/purchases': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Received purchase orders, newest first, each with its layers
     * @description Requires scope: inventory:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getPurchases'];
    put?: never;
    /**
     * Receive a purchase order: one FIFO cost layer per line, for the caller's operator
     * @description Requires scope: inventory:write.
     *
     *     Not available to access-group sessions (403).
     *
     *     FIFO cost is zero until a purchase order is received. `unitCostUsd` has at most two decimals. A `poRef` the operator already received is 409, nothing written.
     */
    post: operations['postPurchases'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Restock runs of the caller's crews, newest first
     * @description Requires scope: inventory:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getRestock'];
    put?: never;
    /**
     * Plan a restock run of a machine in a crew's fleet (the given crew, else the caller's oldest crew over it); the pick list comes from par levels. 409 when the machine already has an open run
     * @description Requires scope: inventory:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postRestock'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock/{runId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One restock run (members of the run's crew only; anyone else 404)
     * @description Requires scope: inventory:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getRestockByRunId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock/{runId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a planned or started run (its creator or the crew's owners and admins; other members 403)
     * @description Requires scope: inventory:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postRestockByRunIdCancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock/{runId}/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Complete a planned or started run (any member): each listed aisle takes what was filled, clamped at maxStock, exactly once; aisles not listed keep their stock. 409 when already done or cancelled
     * @description Requires scope: inventory:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postRestockByRunIdComplete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock/{runId}/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a planned run (any member of its crew); 409 from any other status
     * @description Requires scope: inventory:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postRestockByRunIdStart'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/restock/pick-list': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What to load on the truck across the caller's machines: per product the units to bring (par-level picks, faulted aisles excluded) and each machine's aisles; machineNo narrows it to one machine
     * @description Requires scope: inventory:read.
     *
     *     Open to access-group sessions: only the group's machines (others answer 404 'Machine not found').
     */
    get: operations['getRestockPickList'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rollouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * On-machine app rollouts: the rollout in flight with its progress counted now over your cabinets (admins: the fleet), and for admins the rollout sweep's fleet-wide progress snapshots, newest first, paged
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getRollouts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/screensavers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Screensavers, newest first
     * @description Requires scope: ads:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getScreensavers'];
    put?: never;
    /**
     * Upload a screensaver (same media rules as creatives); pending until approved; on the named machines or all of the operator's
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postScreensavers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/screensavers/{id}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * pending → approved: the loop shows it from the next poll
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postScreensaversByIdApprove'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/screensavers/{id}/retire': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * pending or approved → retired (final)
     * @description Requires scope: ads:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postScreensaversByIdRetire'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/subscriptions/pricing': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The operator subscription in force: per device per month, trial and period */
    get: operations['getSubscriptionsPricing'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tax/remittances': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Periods marked remitted, newest first, with the tax computed when each was marked
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getTaxRemittances'];
    put?: never;
    /**
     * Mark an ended period (YYYY-MM, UTC) remitted: the server computes its tax from the orders now, and the period closes to restatement (400: not ended; 409: already remitted)
     * @description Requires scope: orders:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postTaxRemittances'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tax/restatements-blocked': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Closed periods a machine-rate change could not restate, newest first (filter machineNo)
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getTaxRestatementsBlocked'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/tax/schedules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tax schedule, oldest effective date first: the rate stamped on sales of machines without their own salesTaxRate
     * @description Requires scope: orders:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getTaxSchedules'];
    put?: never;
    /**
     * Add a schedule row {bps, effectiveAt}: stamps sales made from that date on; sales already stamped are never repriced (409: a row for that date exists)
     * @description Requires scope: orders:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postTaxSchedules'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The operator's webhook endpoints, oldest first
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getWebhooks'];
    put?: never;
    /**
     * Subscribe an endpoint to event types; answers its signing secret once (at most 10 endpoints per operator)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postWebhooks'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One webhook endpoint
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getWebhooksById'];
    put?: never;
    post?: never;
    /**
     * Delete an endpoint with its pending deliveries and delivery log; answers it as it was
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    delete: operations['deleteWebhooksById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The endpoint's deliveries, newest first, with status, attempts and the last response code
     * @description Requires scope: machines:read.
     *
     *     Not available to access-group sessions (403).
     */
    get: operations['getWebhooksByIdDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/enable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Turn an endpoint disabled after consecutive failures back on; its pending deliveries resume in order
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postWebhooksByIdEnable'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace the signing secret at once; answers the new one once
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postWebhooksByIdRotateSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a signed webhook.test event to the endpoint now; answers the delivery after its first attempt (retried like any other if it failed)
     * @description Requires scope: machines:write.
     *
     *     Not available to access-group sessions (403).
     */
    post: operations['postWebhooksByIdTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/apkUp': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reports the app version */
    post: operations['postApkApkUp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/createOrder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The cabinet records a sale it has vended, on the machine's operator: family A has no dispense report, so the order is shipped and the stock taken at once */
    post: operations['postApkCreateOrder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/getAd': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The attract loop of the machine, assembled on each call: direct-sold campaigns in flight (by weight), approved screensavers, programmatic fill (at most 3), house content padding the tail */
    get: operations['getApkGetAd'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/getEquipment': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** First contact: auto-provisions an unseen claimable board into the unclaimed pool (fully stocked); answers configuration and goods */
    post: operations['postApkGetEquipment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/saveAdRecord': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Proof of play: a single record or {records: [...]}; a retried showing counts once; a programmatic showing fires its proof-of-play URL once */
    post: operations['postApkSaveAdRecord'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/apk/validVmcVersion': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reports the controller firmware version */
    post: operations['postApkValidVmcVersion'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/checkouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pay by phone: a checkout for the aisle at the server's price, paid through the payment processor on the shopper's phone
     * @description 201 with the checkout; `payUrl` is the phone page the cabinet shows as a QR. The name and price come from the server's planogram, the currency is the operator's. One open checkout per cabinet: a second one answers 409 (busy) until the first is paid and dropped, expired or cancelled. 409 also for an aisle sold out, faulted or without a price; 400 for an aisle the machine does not have; 503 when this deployment has no payment processor.
     */
    post: operations['postCabinetCheckouts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/checkouts/{checkoutId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One of this cabinet's checkouts, as it stands: unpaid past its expiry it answers expired; paid, it follows its drop (vended, or failed with the refund owed) */
    get: operations['getCabinetCheckoutsByCheckoutId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/checkouts/{checkoutId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** The shopper gave up: a checkout awaiting payment is cancelled (a payment that still arrives is owed back); any other is answered as it stands (a paid one goes on to its drop) */
    post: operations['postCabinetCheckoutsByCheckoutIdCancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/config': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The configuration block */
    get: operations['getCabinetConfig'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/createOrder': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Open a walk-up order on the machine's operator (paid, awaiting its vend) */
    post: operations['postCabinetCreateOrder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/enrol': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Enrol with the fleet secret (header `secret`): answers {keyId, deviceKey, machineCode} once */
    post: operations['postCabinetEnrol'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/goods': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Planogram: SKUs, prices, stock, faulted lanes */
    get: operations['getCabinetGoods'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/heartbeat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Heartbeat: marks the machine online; records agentVersion, vmcVersion, capabilities and the deferral/blocked reports */
    post: operations['postCabinetHeartbeat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/pending': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Pending remote dispense commands, oldest first. `wait` (0-25 s): with nothing pending, hold the answer until a command is enqueued or the wait is over (long poll) */
    get: operations['getCabinetPending'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/prize-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Game events (scan, entry, play, win), at most 500: each counted once by eventId; events of a disabled mechanic and wins past a cap or the budget are refused and listed; answers the settings to follow */
    post: operations['postCabinetPrizeEvents'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/prize-mechanics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The prize settings the cabinet must follow now: each mechanic on/off, its caps and wins left today, the budget left this period */
    get: operations['getCabinetPrizeMechanics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Register: binds or checks the box, records software, answers the configuration block; provisions an unknown claimable serial into the unclaimed pool */
    post: operations['postCabinetRegister'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/report': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Dispense report: exactly once per dispenseId; completes a remote drop (commandId) or settles a walk-up order (orderNumber); accepted for a retired machine */
    post: operations['postCabinetReport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/cabinet/upgrade': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The upgrade offer for this cabinet, or nothing (data: null): the artifact for its architecture; without agentVersion or arch the last reported one stands in */
    get: operations['getCabinetUpgrade'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Store and cache health: 200, or 503 `degraded` with the same data naming what is down */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/media/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A stored creative file by its content address (`<sha256>.<png|jpg|webp|mp4>`)
     * @description The bytes of an uploaded or generated creative, with its own Content-Type, a strong ETag (the hash), `Cache-Control: public, max-age=31536000, immutable` and byte ranges (video seeking). Any other name, or a file not stored, is a 404.
     */
    get: operations['getMediaByFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics of this process: requests by route and status with latency histograms, held long polls, loops, store pool
     * @description Requires an admin credential.
     *
     *     Text exposition format 0.0.4. Admin credential (X-API-Key), as the other admin reads. docs/decisions/scale-out.md lists the series.
     */
    get: operations['getMetrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** OAuth 2.0 client-credentials token (form-encoded; client secret in the body or HTTP Basic) */
    post: operations['postOauthToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ready': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness for traffic: 200 ready; 503 draining (shutdown under way) or unavailable (store down) */
    get: operations['getReady'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Audit log of every write, newest first; paged by the page/size query, the total in the X-Total-Count header
     * @description Requires an admin credential.
     */
    get: operations['getSandboxAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/dispense-decision': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Dispense-decision loop status: missing outcomes ruled failed after timeoutSeconds */
    get: operations['getSandboxDispenseDecision'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/persistence': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Durable store status */
    get: operations['getSandboxPersistence'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/readiness': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness report with live self-test (HTML for browsers) */
    get: operations['getSandboxReadiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/refund-sweep': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Refund sweep status: paid orders never vended become owed refunds */
    get: operations['getSandboxRefundSweep'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Restore the seed fleet
     * @description Requires an admin credential.
     */
    post: operations['postSandboxReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sandbox/rollout-sweep': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Rollout sweep status */
    get: operations['getSandboxRolloutSweep'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssp/mock/creative/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A mock creative: 1080×1920 PNG (`1.png` … `3.png`) */
    get: operations['getSspMockCreativeByFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssp/mock/get_ad/json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Lease ads for a screen: one per display area that takes image/png, at most 3
     * @description The sandbox’s built-in supply-side platform, standing in for an outside SSP (Vistar-style wire format). Success bodies are the SSP’s own JSON, not the `{code, message, data}` envelope; errors use the envelope. No operator key: these are the SSP’s own endpoints.
     *
     *     The body names the network and key (sandbox: `network_id` `sandbox-network`, `api_key` `sandbox-ssp-key`; others are 401), the screen (`device_id`, `venue_id`, `latitude`, `longitude`) and its `display_area`s. Each answered ad is a lease good for one hour at net CPM 12.0, with a one-shot `proof_of_play_url` and `lease_expiry` in unix seconds. Unknown fields are ignored. An empty `advertisement` list means no fill.
     */
    post: operations['postSspMockGetAdJson'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssp/mock/pop/{leaseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Proof of play for a lease: taken once
     * @description The sandbox’s built-in supply-side platform, standing in for an outside SSP (Vistar-style wire format). Success bodies are the SSP’s own JSON, not the `{code, message, data}` envelope; errors use the envelope. No operator key: these are the SSP’s own endpoints.
     *
     *     The first call for a live lease takes it and answers its receipt; any later call is 409 (already popped), an unknown lease 404, a lease past its `lease_expiry` 410. `display_time` (unix seconds) is accepted as Vistar sends it; the mock records when the PoP arrived.
     */
    get: operations['getSspMockPopByLeaseId'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ssp/mock/receipts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Leases whose proof of play arrived, newest first
     * @description The sandbox’s built-in supply-side platform, standing in for an outside SSP (Vistar-style wire format). Success bodies are the SSP’s own JSON, not the `{code, message, data}` envelope; errors use the envelope. No operator key: these are the SSP’s own endpoints.
     *
     *     One receipt per popped lease (a lease pops once), optionally of one `device_id` (a machine's serial); paged with `page` and `size`.
     */
    get: operations['getSspMockReceipts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: {
    /** @description The operation needs an admin credential. */
    AdminRequired: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 403,
         *       "message": "Admin credential required",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 403;
          data: null;
          message: string;
        };
      };
    };
    /** @description Bad body or parameters: missing or out-of-rule values, or a body that is not valid JSON — read before routing, whatever the operation (spec 1 §7). The message is the catalogue text, then the reasons. */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 400,
         *       "message": "Bad request — invalid or missing parameters",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 400;
          data: null;
          /** @description Starts with 'Bad request — invalid or missing parameters' */
          message: string;
        };
      };
    };
    /** @description The request conflicts with the current state (spec 1 §7). */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 409,
         *       "message": "Conflict",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 409;
          data: null;
          message: string;
        };
      };
    };
    /** @description The cabinet credential may not do this (wrong machine, revoked or blocked). */
    DeviceForbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 403,
         *       "message": "Insufficient scope",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 403;
          data: null;
          message: string;
        };
      };
    };
    /** @description Missing or invalid cabinet credentials: device key, or the fleet secret where the leg accepts it. */
    DeviceUnauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 401,
         *       "message": "Invalid API key: Invalid device key",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 401;
          data: null;
          /** @description Starts with 'Invalid API key' */
          message: string;
        };
      };
    };
    /** @description The credential lacks a scope the operation needs (spec 1 §5, §7). */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 403,
         *       "message": "Insufficient scope",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 403;
          data: null;
          message: string;
        };
      };
    };
    /** @description The resource existed and is gone for good (a retired credential, a superseded offer). */
    Gone: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 410,
         *       "message": "Gone",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 410;
          data: null;
          message: string;
        };
      };
    };
    /** @description The machine is missing or owned by another operator (spec 1 §7). */
    MachineNotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 404,
         *       "message": "Machine not found",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 404;
          data: null;
          message: string;
        };
      };
    };
    /** @description The resource is missing or owned by another operator (spec 1 §7). */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 404,
         *       "message": "Not found",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 404;
          data: null;
          message: string;
        };
      };
    };
    /** @description The body is larger than the parser accepts: JSON bodies up to 1 MB, form bodies up to 64 kB (the payment webhook: 64 kB). Any request that carries a body is read before routing. */
    PayloadTooLarge: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 413,
         *       "message": "Request body too large",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 413;
          data: null;
          message: string;
        };
      };
    };
    /** @description A precondition the operation needs is missing. */
    PreconditionRequired: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 428,
         *       "message": "Precondition required",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 428;
          data: null;
          message: string;
        };
      };
    };
    /** @description Hourly limit exceeded: 1,000 requests per hour per credential (spec 1 §8). */
    RateLimited: {
      headers: {
        /**
         * @description Seconds until the budget renews (3600)
         * @example 3600
         */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 429,
         *       "message": "Rate limit exceeded",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 429;
          data: null;
          message: string;
        };
      };
    };
    /** @description Unsigned call, or a signature that does not verify (spec 1 §6). */
    SignatureUnauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 401,
         *       "message": "Invalid API key",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 401;
          data: null;
          /** @description Starts with 'Invalid API key' */
          message: string;
        };
      };
    };
    /** @description Missing or invalid credentials (spec 1 §7). */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 401,
         *       "message": "Invalid API key",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 401;
          data: null;
          /** @description Starts with 'Invalid API key' */
          message: string;
        };
      };
    };
    /** @description The service cannot answer now: its store is unreachable, busy or full, or this replica is draining. Nothing of the request was written; retry after the given seconds (docs/decisions/outages.md). */
    Unavailable: {
      headers: {
        /**
         * @description Seconds to wait before retrying
         * @example 2
         */
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 503,
         *       "message": "Service unavailable",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 503;
          data: null;
          message: string;
        };
      };
    };
    /** @description The body has a charset other than UTF-8 or a Content-Encoding other than identity, gzip, deflate or br. Any request that carries a body is read before routing. */
    UnsupportedEncoding: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 415,
         *       "message": "Bad request — invalid or missing parameters: unsupported body encoding",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 415;
          data: null;
          /** @description Starts with 'Bad request — invalid or missing parameters' */
          message: string;
        };
      };
    };
    /** @description An upstream service failed; its error is returned verbatim (spec 1 §7). */
    Upstream: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 502,
         *       "message": "Upstream error",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 502;
          data: null;
          message: string;
        };
      };
    };
    /** @description Malformed path, query or body types (spec 1 §7). The message is the catalogue text, then the reasons. */
    Validation: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "code": 422,
         *       "message": "Validation error",
         *       "data": null
         *     }
         */
        'application/json': {
          /** @constant */
          code: 422;
          data: null;
          message: string;
        };
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getAdvertisePoster: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getAccessAssignment: {
    parameters: {
      query: {
        username: string & (unknown & unknown);
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              assignedAt: string | null;
              /** @description null: no access to the fleet (they cannot open a session) */
              groupId: string | null;
              groupName: string | null;
              machineNos: string[];
              scopes: (
                'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
              )[];
              username: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putAccessAssignment: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          groupId: string | null;
          /** Format: email */
          username: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              assignedAt: string | null;
              /** @description null: no access to the fleet (they cannot open a session) */
              groupId: string | null;
              groupName: string | null;
              machineNos: string[];
              scopes: (
                'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
              )[];
              username: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAccessGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              machineNos: string[];
              name: string;
              scopes: (
                'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
              )[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              /** @description the people assigned to this group */
              usernames: string[];
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAccessGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          machineNos: string[];
          name: string & (unknown & unknown);
          scopes?: (
            'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
          )[];
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              machineNos: string[];
              name: string;
              scopes: (
                'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
              )[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              /** @description the people assigned to this group */
              usernames: string[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putAccessGroupsByGroupId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          machineNos: string[];
          name: string & (unknown & unknown);
          scopes?: (
            'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
          )[];
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              machineNos: string[];
              name: string;
              scopes: (
                'machines:read' | 'machines:write' | 'inventory:read' | 'inventory:write' | 'orders:read' | 'orders:write' | 'commands:read' | 'commands:write'
              )[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              /** @description the people assigned to this group */
              usernames: string[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAccessMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              authMethod: string;
              /** @description the fleets this person may open a session on (POST /api/v1/access/session) */
              grants: {
                groupId: string;
                groupName: string;
                operatorEmail: string;
                operatorName: string;
              }[];
              group: {
                id: string;
                machineNos: string[];
                name: string;
                scopes: (
                  | 'machines:read'
                  | 'machines:write'
                  | 'inventory:read'
                  | 'inventory:write'
                  | 'orders:read'
                  | 'orders:write'
                  | 'commands:read'
                  | 'commands:write'
                  | 'ads:read'
                  | 'ads:write'
                  | 'machines:build'
                  | 'accounts:admin'
                )[];
              } | null;
              /** @description whose fleet this credential acts on */
              operatorEmail: string;
              /** @description true for an access-group session: only the group machines, only the group scopes */
              restricted: boolean;
              scopes: (
                | 'machines:read'
                | 'machines:write'
                | 'inventory:read'
                | 'inventory:write'
                | 'orders:read'
                | 'orders:write'
                | 'commands:read'
                | 'commands:write'
                | 'ads:read'
                | 'ads:write'
                | 'machines:build'
                | 'accounts:admin'
              )[];
              /** @description the person calling */
              username: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAccessSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          operatorEmail: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description Seconds */
              expiresIn: number;
              group: {
                id: string;
                machineNos: string[];
                name: string;
                scopes: (
                  | 'machines:read'
                  | 'machines:write'
                  | 'inventory:read'
                  | 'inventory:write'
                  | 'orders:read'
                  | 'orders:write'
                  | 'commands:read'
                  | 'commands:write'
                  | 'ads:read'
                  | 'ads:write'
                  | 'machines:build'
                  | 'accounts:admin'
                )[];
              };
              operator: {
                email: string;
                name: string;
              };
              /** @description Space-separated: what the group grants and the opening credential holds */
              scope: string;
              /** @description Bearer token of the session; shown once */
              token: string;
              /** @constant */
              tokenType: 'Bearer';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAccounts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default false */
          admin?: boolean;
          /** @description Defaults to USD for operators; admins have none */
          currency?: string;
          /** Format: email */
          email: string & (unknown & unknown);
          name: string & (unknown & unknown);
          password?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              admin: boolean;
              /** @description A standard operator key */
              apiKey: {
                id: string;
                /** @description The full key: shown this once, stored only hashed */
                key: string;
                rateLimit: number;
                scopes: (
                  | 'machines:read'
                  | 'machines:write'
                  | 'inventory:read'
                  | 'inventory:write'
                  | 'orders:read'
                  | 'orders:write'
                  | 'commands:read'
                  | 'commands:write'
                  | 'ads:read'
                  | 'ads:write'
                  | 'machines:build'
                  | 'accounts:admin'
                )[];
              };
              createdAt: string | null;
              currency: string | null;
              email: string;
              id: string;
              name: string;
              passwordSet: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAdPurchases: {
    parameters: {
      query?: {
        /** @description An operator's own line's status (admins: any line's); the approvals queue is lineStatus=pending_approval */
        lineStatus?: 'pending_approval' | 'approved' | 'rejected';
        page?: number;
        size?: number;
        /** @description The purchase's status */
        status?: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                buyer: {
                  email: string;
                  name: string;
                  phone: string | null;
                };
                catalogVersion: string;
                createdAt: string;
                creative: {
                  bytes: number;
                  contentxRef: string | null;
                  durationMs: number | null;
                  height: number;
                  /** @enum {string} */
                  kind: 'image' | 'video';
                  mediaType: string;
                  /** @enum {string} */
                  source: 'upload' | 'contentx';
                  url: string;
                  width: number;
                };
                currency: string;
                flightEnd: string;
                flightStart: string;
                generationsUsed: number;
                id: string;
                lines: {
                  amountCents: number;
                  campaignId: string | null;
                  decidedAt: string | null;
                  decidedBy: string | null;
                  lineId: string;
                  machineNos: string[];
                  machines: number;
                  operatorEmail: string;
                  operatorName: string;
                  reason: string | null;
                  refund: {
                    amountCents: number;
                    /** @description When it was issued or last failed; null while owed */
                    at: string | null;
                    /** @description failed: the processor’s reason */
                    reason: string | null;
                    /** @description The processor’s refund id, once issued */
                    refundId: string | null;
                    /**
                     * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                     * @enum {string}
                     */
                    status: 'owed' | 'issued' | 'failed';
                  } | null;
                  refundOwedCents: number;
                  /** @description How many times the buyer sent this line back for approval */
                  resubmissions: number;
                  /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                  resubmittable: boolean;
                  /** @enum {string} */
                  status: 'pending_approval' | 'approved' | 'rejected';
                }[];
                machines: number;
                monthlyRatePerMachineCents: number;
                months: number;
                multiplierBps: number;
                paidAt: string | null;
                paymentIntentId: string;
                paymentProcessor: string;
                purchaseId: string;
                rateCents: number;
                reach: {
                  city?: string;
                  /** @enum {string} */
                  kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                  machineNo?: string;
                  zips?: string[];
                };
                /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
                refundOwedCents: number;
                slots: number;
                sourceMachineNo: string | null;
                sourceQrId: string | null;
                sponsorName: string;
                /** @enum {string} */
                sponsorType: 'local-business' | 'brand-coop';
                /** @enum {string} */
                status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
                totalCents: number;
                updatedAt: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAdPurchasesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              id: string;
              lines: {
                amountCents: number;
                campaignId: string | null;
                decidedAt: string | null;
                decidedBy: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorEmail: string;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              paidAt: string | null;
              paymentIntentId: string;
              paymentProcessor: string;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAdPurchasesByIdApprove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Admins: approve only this operator's line */
          operatorEmail?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              id: string;
              lines: {
                amountCents: number;
                campaignId: string | null;
                decidedAt: string | null;
                decidedBy: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorEmail: string;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              paidAt: string | null;
              paymentIntentId: string;
              paymentProcessor: string;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAdPurchasesByIdRefund: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Admins: refund only this operator's line (default: every line owing a refund) */
          operatorEmail?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              id: string;
              lines: {
                amountCents: number;
                campaignId: string | null;
                decidedAt: string | null;
                decidedBy: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorEmail: string;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              paidAt: string | null;
              paymentIntentId: string;
              paymentProcessor: string;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  postAdPurchasesByIdReject: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Admins: reject only this operator's line */
          operatorEmail?: string & (unknown & unknown);
          /** @description Shown to the buyer on the status page */
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              id: string;
              lines: {
                amountCents: number;
                campaignId: string | null;
                decidedAt: string | null;
                decidedBy: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorEmail: string;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              paidAt: string | null;
              paymentIntentId: string;
              paymentProcessor: string;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAdPurchasesWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          data: {
            /** @description Integer cents: must equal the purchase quote */
            amountCents: number;
            currency: string;
            intentId: string;
            purchaseId: string;
          };
          /** @description The event id: applied at most once */
          id: string;
          /** @description payment_intent.succeeded (other types are recorded and change nothing) */
          type: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data:
              | {
                  /** @description This event id (or this payment) was already applied: nothing changed */
                  duplicate: boolean;
                  eventId: string;
                  purchaseId: string | null;
                  status: ('awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected') | null;
                  type: string;
                }
              | {
                  eventId: string;
                  /** @description that place's own answer, as its webhook would give it (null: none applied it) */
                  result: {
                    [key: string]: unknown;
                  } | null;
                  /** @description the webhook path of the place that applied the event (its metadata.webhookPath); null: no place of this service has that path — acknowledged, recorded in the audit log, nothing changed */
                  routedTo: string | null;
                  type: string;
                };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getAgentFleet: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              blocked: number;
              byArch: {
                [key: string]: number;
              };
              byVersion: {
                [key: string]: number;
              };
              deferring: number;
              eligible: number;
              machines: {
                agentVersion: string | null;
                arch: string | null;
                blocked: {
                  count: number;
                  firstReportedAt: string;
                  minFrom: string;
                  seconds: number;
                  version: string;
                } | null;
                deferring: {
                  count: number;
                  firstReportedAt: string;
                  reason: string;
                  reportedAt: string;
                  seconds: number;
                  version: string;
                } | null;
                inCohort: boolean;
                isFinalStep: boolean | null;
                lastSeen: string | null;
                machineNo: string;
                offerReason: string;
                offerVersion: string | null;
                pin: {
                  pinnedAt: string;
                  pinnedBy: string | null;
                  reason: string;
                  version: string;
                } | null;
                target: string | null;
              }[];
              noArtifact: number;
              onTarget: number;
              page: number;
              pinned: number;
              rollout: {
                allowDowngrade: boolean;
                canary: string[];
                heldAt: string | null;
                holdReason: string | null;
                note: string;
                percent: number;
                /** @enum {string} */
                phase: 'rolling' | 'held' | 'complete';
                setAt: string;
                targetVersion: string;
                updatedAt: string;
              } | null;
              size: number;
              target: string | null;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAgentReleases: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              records: {
                artifacts: {
                  /** @enum {string} */
                  arch: 'x64' | 'arm64';
                  sha256: string;
                  size: number;
                  /**
                   * Format: uri
                   * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                   */
                  url: string;
                }[];
                migration: boolean;
                minFrom: string | null;
                offered: boolean;
                publishedAt: string;
                sequence: number;
                sha256: string;
                signature: string;
                /** @constant */
                signatureAlg: 'ed25519';
                size: number;
                url: string;
                version: string;
              }[];
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAgentReleases: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              artifacts?: {
                /** @enum {string} */
                arch: 'x64' | 'arm64';
                sha256: string;
                size: number;
                /**
                 * Format: uri
                 * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                 */
                url: string;
              }[];
              migration: boolean;
              minFrom?: string | null;
              sequence?: number;
              sha256?: string;
              signature: string;
              /** @constant */
              signatureAlg: 'ed25519';
              size?: number;
              /**
               * Format: uri
               * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
               */
              url?: string;
              version: string;
            }
          | {
              artifacts?: never;
            }
          | {
              sha256?: never;
              size?: never;
              url?: never;
            };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              artifacts: {
                /** @enum {string} */
                arch: 'x64' | 'arm64';
                sha256: string;
                size: number;
                /**
                 * Format: uri
                 * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                 */
                url: string;
              }[];
              created: boolean;
              migration: boolean;
              minFrom: string | null;
              offered: boolean;
              publishedAt: string;
              sequence: number;
              sha256: string;
              signature: string;
              /** @constant */
              signatureAlg: 'ed25519';
              size: number;
              url: string;
              version: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAgentRollout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              allowDowngrade: boolean;
              canary: string[];
              heldAt: string | null;
              holdReason: string | null;
              note: string;
              percent: number;
              /** @enum {string} */
              phase: 'rolling' | 'held' | 'complete';
              setAt: string;
              targetVersion: string;
              updatedAt: string;
            } | null;
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putAgentRollout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default false */
          allowDowngrade?: boolean;
          /** @default [] */
          canary?: string[];
          /** @default  */
          note?: '' | (string & (unknown & unknown));
          /** @default 0 */
          percent?: number;
          /**
           * @default rolling
           * @enum {string}
           */
          phase?: 'rolling' | 'held' | 'complete';
          targetVersion: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              allowDowngrade: boolean;
              canary: string[];
              heldAt: string | null;
              holdReason: string | null;
              note: string;
              percent: number;
              /** @enum {string} */
              phase: 'rolling' | 'held' | 'complete';
              setAt: string;
              targetVersion: string;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAgentRolloutHold: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              allowDowngrade: boolean;
              canary: string[];
              heldAt: string | null;
              holdReason: string | null;
              note: string;
              percent: number;
              /** @enum {string} */
              phase: 'rolling' | 'held' | 'complete';
              setAt: string;
              targetVersion: string;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAgentRolloutResume: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              allowDowngrade: boolean;
              canary: string[];
              heldAt: string | null;
              holdReason: string | null;
              note: string;
              percent: number;
              /** @enum {string} */
              phase: 'rolling' | 'held' | 'complete';
              setAt: string;
              targetVersion: string;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAlertRules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              emails: string[];
              eventTypes: string[];
              id: string;
              name: string;
              quietHours: {
                end: string;
                start: string;
              } | null;
              scope:
                | {
                    /** @constant */
                    kind: 'fleet';
                  }
                | {
                    /** @constant */
                    kind: 'machine';
                    machineNo: string;
                  }
                | {
                    /** @description an access group of the operator */
                    groupId: string;
                    /** @constant */
                    kind: 'group';
                  };
              timeZone: string;
              webhook: boolean;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAlertRules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default [] */
          emails?: (string & (unknown & unknown))[];
          eventTypes: (
            | 'machine.offline'
            | 'dispense.failed'
            | 'command.expired'
            | 'order.refund_owed'
            | 'order.refund_failed'
            | 'aisle.low'
            | 'aisle.out'
            | 'aisle.fault'
            | 'agent.upgrade_blocked'
            | 'agent.upgrade_reverted'
          )[];
          name: string & (unknown & unknown);
          /** @description local HH:MM in timeZone; alerts raised inside are notified when they end (a window may span midnight) */
          quietHours?: {
            end: string;
            start: string;
          };
          /**
           * @default {
           *       "kind": "fleet"
           *     }
           */
          scope?:
            | {
                /** @constant */
                kind: 'fleet';
              }
            | {
                /** @constant */
                kind: 'machine';
                machineNo: string;
              }
            | {
                /** @description an access group of the operator */
                groupId: string;
                /** @constant */
                kind: 'group';
              };
          /** @default UTC */
          timeZone?: string;
          /**
           * @description send alert.opened / alert.cleared to the operator's endpoints subscribed to them
           * @default true
           */
          webhook?: boolean;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              emails: string[];
              eventTypes: string[];
              id: string;
              name: string;
              quietHours: {
                end: string;
                start: string;
              } | null;
              scope:
                | {
                    /** @constant */
                    kind: 'fleet';
                  }
                | {
                    /** @constant */
                    kind: 'machine';
                    machineNo: string;
                  }
                | {
                    /** @description an access group of the operator */
                    groupId: string;
                    /** @constant */
                    kind: 'group';
                  };
              timeZone: string;
              webhook: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteAlertRulesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              emails: string[];
              eventTypes: string[];
              id: string;
              name: string;
              quietHours: {
                end: string;
                start: string;
              } | null;
              scope:
                | {
                    /** @constant */
                    kind: 'fleet';
                  }
                | {
                    /** @constant */
                    kind: 'machine';
                    machineNo: string;
                  }
                | {
                    /** @description an access group of the operator */
                    groupId: string;
                    /** @constant */
                    kind: 'group';
                  };
              timeZone: string;
              webhook: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAlerts: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        state?: 'open' | 'clearing' | 'cleared' | 'resolved';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                clearedAt: string | null;
                /** @description what the alert is about; at most one open alert per rule and condition */
                condition: string;
                /** @description the raising event's data (the latest occurrence) */
                data: {
                  [key: string]: unknown;
                };
                id: string;
                machineNo: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                notifiedAt: string | null;
                /** @description how many times the condition was raised while this alert was live */
                occurrences: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                openedAt: string;
                ruleId: string;
                /**
                 * @description open; clearing (cleared, closes after 30 min unless it returns); cleared; resolved (closed by hand)
                 * @enum {string}
                 */
                state: 'open' | 'clearing' | 'cleared' | 'resolved';
                /** @description the event type that raised it */
                type: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAlertsByIdResolve: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              clearedAt: string | null;
              /** @description what the alert is about; at most one open alert per rule and condition */
              condition: string;
              /** @description the raising event's data (the latest occurrence) */
              data: {
                [key: string]: unknown;
              };
              id: string;
              machineNo: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              notifiedAt: string | null;
              /** @description how many times the condition was raised while this alert was live */
              occurrences: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              openedAt: string;
              ruleId: string;
              /**
               * @description open; clearing (cleared, closes after 30 min unless it returns); cleared; resolved (closed by hand)
               * @enum {string}
               */
              state: 'open' | 'clearing' | 'cleared' | 'resolved';
              /** @description the event type that raised it */
              type: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAuthCredentials: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              apiKeys: {
                createdAt: string | null;
                id: string;
                /** @description Masked: the key id and never the secret */
                key: string;
                name: string;
                plant: string | null;
                /** @description Requests per hour */
                rateLimit: number;
                revoked: boolean;
                scopes: (
                  | 'machines:read'
                  | 'machines:write'
                  | 'inventory:read'
                  | 'inventory:write'
                  | 'orders:read'
                  | 'orders:write'
                  | 'commands:read'
                  | 'commands:write'
                  | 'ads:read'
                  | 'ads:write'
                  | 'machines:build'
                  | 'accounts:admin'
                )[];
              }[];
              oauthClients: {
                clientId: string;
                /** @description Masked */
                clientSecret: string;
                createdAt: string | null;
                name: string;
                /** @description Requests per hour */
                rateLimit: number;
                revoked: boolean;
                scopes: (
                  | 'machines:read'
                  | 'machines:write'
                  | 'inventory:read'
                  | 'inventory:write'
                  | 'orders:read'
                  | 'orders:write'
                  | 'commands:read'
                  | 'commands:write'
                  | 'ads:read'
                  | 'ads:write'
                  | 'machines:build'
                  | 'accounts:admin'
                )[];
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email: string & (unknown & unknown);
          password: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description Seconds the ticket stays valid */
              expiresIn: number;
              methods: ('totp' | 'recovery_code')[];
              /** @description MFA is not enrolled yet: /mfa/enroll/start, then /mfa/enroll/confirm */
              mfaEnrollmentRequired: boolean;
              /** @description MFA is enrolled: answer with /mfa/verify or /mfa/recovery */
              mfaRequired: boolean;
              operator: {
                admin: boolean;
                email: string;
                name: string;
              };
              ticket: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthLoginSocial: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The identity provider's ID token (a JWT) */
          idToken: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description Seconds the ticket stays valid */
              expiresIn: number;
              methods: ('totp' | 'recovery_code')[];
              /** @description MFA is not enrolled yet: /mfa/enroll/start, then /mfa/enroll/confirm */
              mfaEnrollmentRequired: boolean;
              /** @description MFA is enrolled: answer with /mfa/verify or /mfa/recovery */
              mfaRequired: boolean;
              operator: {
                admin: boolean;
                email: string;
                name: string;
              };
              ticket: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getAuthMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              admin: boolean;
              /** @enum {string} */
              authMethod: 'api_key' | 'oauth' | 'session' | 'jwt' | 'access';
              /** @description Null for full admins */
              currency: string | null;
              operatorEmail: string;
              scopes: (
                | 'machines:read'
                | 'machines:write'
                | 'inventory:read'
                | 'inventory:write'
                | 'orders:read'
                | 'orders:write'
                | 'commands:read'
                | 'commands:write'
                | 'ads:read'
                | 'ads:write'
                | 'machines:build'
                | 'accounts:admin'
              )[];
              userId: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthMfaEnrollConfirm: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
          /** @description The ticket from /api/v1/auth/login or /login/social */
          ticket: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              expiresIn: number;
              operator: {
                admin: boolean;
                email: string;
                name: string;
              };
              /** @description Shown once; each signs in once via /mfa/recovery */
              recoveryCodes: string[];
              /** @description Space-separated */
              scope: string;
              token: string;
              /** @constant */
              tokenType: 'Bearer';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthMfaEnrollStart: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The ticket from /api/v1/auth/login or /login/social */
          ticket: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @constant */
              algorithm: 'SHA1';
              /** @constant */
              digits: 6;
              otpauthUrl: string;
              /** @constant */
              period: 30;
              /** @description Base32 TOTP secret */
              secret: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthMfaRecovery: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description One of the codes shown at enrolment; case, spaces and hyphens ignored */
          recoveryCode: string;
          /** @description The ticket from /api/v1/auth/login or /login/social */
          ticket: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              expiresIn: number;
              operator: {
                admin: boolean;
                email: string;
                name: string;
              };
              recoveryCodesRemaining: number;
              /** @description Space-separated */
              scope: string;
              token: string;
              /** @constant */
              tokenType: 'Bearer';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postAuthMfaVerify: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
          /** @description The ticket from /api/v1/auth/login or /login/social */
          ticket: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              expiresIn: number;
              operator: {
                admin: boolean;
                email: string;
                name: string;
              };
              /** @description Space-separated */
              scope: string;
              token: string;
              /** @constant */
              tokenType: 'Bearer';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getBalanceSheet: {
    parameters: {
      query?: {
        /** @description the balance at the end of this UTC day; default today */
        asOf?: string & unknown;
        /** @description admin credentials only */
        operatorEmail?: string & (unknown & unknown);
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              asOf: string;
              assets: {
                /** @description cash, integer cents */
                cashCents: number;
                /** @description FIFO cost still in layers, integer cents */
                inventoryCents: number;
                /** @description assets, integer cents */
                totalCents: number;
              };
              balanced: boolean;
              cash: {
                /** @description receipt amounts of every order not refunded, integer cents */
                collectedCents: number;
                /** @description expenses, integer cents */
                expensesCents: number;
                /** @description the 2% fee, integer cents */
                feesCents: number;
                /** @description host statements paid, integer cents */
                payoutsCents: number;
                /** @description payroll, integer cents */
                payrollCents: number;
                /** @description cost of every layer received, integer cents */
                purchasesCents: number;
                /** @description referrals, integer cents */
                referralsCents: number;
                /** @description sales tax remitted, integer cents */
                taxRemittedCents: number;
              };
              equity: {
                /** @description cumulative operator net, integer cents */
                retainedEarningsCents: number;
                /** @description equity, integer cents */
                totalCents: number;
              };
              /** @description assets = liabilities + equity, in decimal amounts */
              identity: string;
              liabilities: {
                /** @description orders paid and still awaiting their vend, integer cents */
                awaitingVendCents: number;
                /** @description host share accrued not yet paid out (negative: hosts were paid more than now accrues), integer cents */
                hostCommissionPayableCents: number;
                /** @description orders flagged refund_owed, integer cents */
                refundsOwedCents: number;
                /** @description tax inside sales not yet remitted, integer cents */
                salesTaxPayableCents: number;
                /** @description liabilities, integer cents */
                totalCents: number;
              };
              operatorEmail: string | null;
              /** @constant */
              timeZone: 'UTC';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCampaigns: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        status?: 'draft' | 'active' | 'paused' | 'completed';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                activatedAt: string | null;
                /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
                adPurchaseId: string | null;
                /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
                buyerContact: {
                  email: string;
                  name: string;
                  phone: string | null;
                } | null;
                completedAt: string | null;
                contentxRef: string | null;
                createdAt: string;
                creative: {
                  bytes: number;
                  contentxRef: string | null;
                  durationMs: number | null;
                  height: number;
                  id: string;
                  /** @enum {string} */
                  kind: 'image' | 'video';
                  /** @enum {string} */
                  mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                  /** @enum {string} */
                  source: 'upload' | 'contentx';
                  url: string;
                  width: number;
                } | null;
                creativeSource: ('upload' | 'contentx') | null;
                flightEnd: string | null;
                flightStart: string | null;
                generations: number;
                generationsLeft: number;
                id: string;
                name: string;
                operatorEmail?: string;
                pricing:
                  | {
                      /** @constant */
                      model: 'flat-monthly';
                      monthlyRatePerMachine: number;
                    }
                  | {
                      cpmRate: number;
                      /** @constant */
                      model: 'cpm';
                    };
                sourceMachineNo: string | null;
                sourceQrId: string | null;
                sponsorName: string;
                /** @enum {string} */
                sponsorType: 'local-business' | 'brand-coop';
                /** @enum {string} */
                status: 'draft' | 'active' | 'paused' | 'completed';
                targetGeo: {
                  city?: string;
                  nationwide?: boolean;
                  zips?: string[];
                } | null;
                targetMachines: string[] | null;
                updatedAt: string;
                weight: number;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaigns: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: date-time */
          flightEnd?: string;
          /** Format: date-time */
          flightStart?: string;
          name: string & (unknown & unknown);
          operatorEmail?: string & (unknown & unknown);
          pricing:
            | {
                /** @constant */
                model: 'flat-monthly';
                monthlyRatePerMachine: number;
              }
            | {
                cpmRate: number;
                /** @constant */
                model: 'cpm';
              };
          sponsorName: string & (unknown & unknown);
          /** @enum {string} */
          sponsorType: 'local-business' | 'brand-coop';
          targetGeo?: {
            city?: string & (unknown & unknown);
            nationwide?: boolean;
            zips?: (string & (unknown & unknown))[];
          };
          targetMachines?: string[];
          weight?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCampaignsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putCampaignsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          flightEnd?: string | null;
          flightStart?: string | null;
          name?: string & (unknown & unknown);
          pricing?:
            | {
                /** @constant */
                model: 'flat-monthly';
                monthlyRatePerMachine: number;
              }
            | {
                cpmRate: number;
                /** @constant */
                model: 'cpm';
              };
          sponsorName?: string & (unknown & unknown);
          /** @enum {string} */
          sponsorType?: 'local-business' | 'brand-coop';
          targetGeo?: {
            city?: string & (unknown & unknown);
            nationwide?: boolean;
            zips?: (string & (unknown & unknown))[];
          };
          targetMachines?: string[];
          weight?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteCampaignsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @constant */
              deleted: true;
              id: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaignsByIdActivate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaignsByIdComplete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaignsByIdCreativeContentx: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          brief: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaignsByIdCreativeUpload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          contentType: string;
          dataBase64: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCampaignsByIdPause: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              activatedAt: string | null;
              /** @description The self-serve ad purchase this campaign was drafted for; its approval activates it */
              adPurchaseId: string | null;
              /** @description The self-serve buyer's contact (campaigns drafted for an ad purchase) */
              buyerContact: {
                email: string;
                name: string;
                phone: string | null;
              } | null;
              completedAt: string | null;
              contentxRef: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              } | null;
              creativeSource: ('upload' | 'contentx') | null;
              flightEnd: string | null;
              flightStart: string | null;
              generations: number;
              generationsLeft: number;
              id: string;
              name: string;
              operatorEmail?: string;
              pricing:
                | {
                    /** @constant */
                    model: 'flat-monthly';
                    monthlyRatePerMachine: number;
                  }
                | {
                    cpmRate: number;
                    /** @constant */
                    model: 'cpm';
                  };
              sourceMachineNo: string | null;
              sourceQrId: string | null;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
              targetGeo: {
                city?: string;
                nationwide?: boolean;
                zips?: string[];
              } | null;
              targetMachines: string[] | null;
              updatedAt: string;
              weight: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCampaignsByIdReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              campaignId: string;
              estImpressions: number;
              estMonthlyValue: number;
              estRevenue: number;
              lastPlayAt: string | null;
              machines: number;
              name: string;
              plays: number;
              playsByMachine: {
                machineNo: string;
                plays: number;
              }[];
              /** @enum {string} */
              pricingModel: 'flat-monthly' | 'cpm';
              /** @enum {string} */
              status: 'draft' | 'active' | 'paused' | 'completed';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCampaignsReportsSummary: {
    parameters: {
      query?: {
        operatorEmail?: string & (unknown & unknown);
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              campaigns: {
                campaignId: string;
                estImpressions: number;
                estMonthlyValue: number;
                estRevenue: number;
                lastPlayAt: string | null;
                machines: number;
                name: string;
                plays: number;
                playsByMachine: {
                  machineNo: string;
                  plays: number;
                }[];
                /** @enum {string} */
                pricingModel: 'flat-monthly' | 'cpm';
                /** @enum {string} */
                status: 'draft' | 'active' | 'paused' | 'completed';
              }[];
              estRevenue: number;
              loop: {
                'direct-sold': {
                  estImpressions: number;
                  plays: number;
                  share: number;
                };
                house: {
                  estImpressions: number;
                  plays: number;
                  share: number;
                };
                plays: number;
                programmatic: {
                  estImpressions: number;
                  estRevenue: number;
                  plays: number;
                  share: number;
                };
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCrew: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the operator account that created it */
              createdBy: string;
              id: string;
              /** @description true for the caller's default crew, created on their first GET /crew/mine */
              isDefault: boolean;
              memberCount: number;
              /**
               * @description the caller's role in this crew
               * @enum {string}
               */
              myRole: 'owner' | 'admin' | 'member';
              name: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrewByCrewId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the operator account that created it */
              createdBy: string;
              id: string;
              /** @description true for the caller's default crew, created on their first GET /crew/mine */
              isDefault: boolean;
              memberCount: number;
              /**
               * @description the caller's role in this crew
               * @enum {string}
               */
              myRole: 'owner' | 'admin' | 'member';
              name: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCrewByCrewIdInvite: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: email */
          email: string & (unknown & unknown);
          /**
           * @default member
           * @enum {string}
           */
          role?: 'owner' | 'admin' | 'member';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description where the invited person accepts (POST, with ?token=) */
              acceptPath: string;
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              expiresAt: string;
              inviteId: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
              /** @enum {string} */
              state: 'pending' | 'accepted' | 'revoked' | 'expired';
              /** @description the one-time token: shown only in this answer, never again; send it as ?token= to accept-invite */
              token: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrewByCrewIdInvites: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              acceptedAt: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              expiresAt: string;
              invitedBy: string;
              inviteId: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
              /**
               * @description as of now: a pending invitation past its expiry reads expired
               * @enum {string}
               */
              state: 'pending' | 'accepted' | 'revoked' | 'expired';
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteCrewByCrewIdInvitesByInviteId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
        inviteId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              acceptedAt: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              expiresAt: string;
              invitedBy: string;
              inviteId: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
              /**
               * @description as of now: a pending invitation past its expiry reads expired
               * @enum {string}
               */
              state: 'pending' | 'accepted' | 'revoked' | 'expired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrewByCrewIdMembers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              joinedAt: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteCrewByCrewIdMembersByMemberEmail: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
        memberEmail: string & (unknown & unknown);
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              joinedAt: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putCrewByCrewIdMembersByMemberEmailRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        crewId: string;
        memberEmail: string & (unknown & unknown);
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          role: 'owner' | 'admin' | 'member';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              joinedAt: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCrewAcceptInviteByInviteId: {
    parameters: {
      query: {
        token: string;
      };
      header?: never;
      path: {
        inviteId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              crewId: string;
              email: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              joinedAt: string;
              /** @enum {string} */
              role: 'owner' | 'admin' | 'member';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrewMine: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the operator account that created it */
              createdBy: string;
              id: string;
              /** @description true for the caller's default crew, created on their first GET /crew/mine */
              isDefault: boolean;
              memberCount: number;
              /**
               * @description the caller's role in this crew
               * @enum {string}
               */
              myRole: 'owner' | 'admin' | 'member';
              name: string;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrmVenues: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                address: string | null;
                createdAt: string;
                deploymentDate: string | null;
                id: string;
                kioskMachineNo: string | null;
                machineNos: string[];
                machines: {
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                  attachedAt: string;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                  commissionFrom: string;
                  /**
                   * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                   * @enum {string}
                   */
                  commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                  machineNo: string;
                }[];
                name: string;
                operatorEmail?: string | null;
                revShareBps: number;
                stints: {
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                  attachedAt: string;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                  commissionFrom: string;
                  /**
                   * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                   * @enum {string}
                   */
                  commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                  machineNo: string;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: when it left (moved elsewhere or detached); null while still here */
                  until: string | null;
                }[];
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postCrmVenues: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address?: (string & (unknown & unknown)) | null;
          deploymentDate?: string | null;
          kioskMachineNo?: string | null;
          machineNos?: string[];
          name: string & (unknown & unknown);
          revShareBps: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              createdAt: string;
              deploymentDate: string | null;
              id: string;
              kioskMachineNo: string | null;
              machineNos: string[];
              machines: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
              }[];
              name: string;
              operatorEmail?: string | null;
              revShareBps: number;
              stints: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: when it left (moved elsewhere or detached); null while still here */
                until: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCrmVenuesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              createdAt: string;
              deploymentDate: string | null;
              id: string;
              kioskMachineNo: string | null;
              machineNos: string[];
              machines: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
              }[];
              name: string;
              operatorEmail?: string | null;
              revShareBps: number;
              stints: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: when it left (moved elsewhere or detached); null while still here */
                until: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  patchCrmVenuesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address?: (string & (unknown & unknown)) | null;
          deploymentDate?: string | null;
          kioskMachineNo?: string | null;
          machineNos?: string[];
          name?: string & (unknown & unknown);
          revShareBps?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              createdAt: string;
              deploymentDate: string | null;
              id: string;
              kioskMachineNo: string | null;
              machineNos: string[];
              machines: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
              }[];
              name: string;
              operatorEmail?: string | null;
              revShareBps: number;
              stints: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the move that attached it */
                attachedAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: host commission accrues from here */
                commissionFrom: string;
                /**
                 * @description move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it
                 * @enum {string}
                 */
                commissionRule: 'move' | 'deploymentDate' | 'firstSale';
                machineNo: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: when it left (moved elsewhere or detached); null while still here */
                until: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyAutopilotTick: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description shortlisting deals whose top venue the autopilot accepted alone (score ≥ autoApproveScore, under maxAutoApprove per UTC day) */
              accepted: {
                dealId: string;
                score: number;
                venueId: string;
                venueName: string;
              }[];
              /** @description deals that changed under the tick (a request in between): left for the next tick */
              conflicts: {
                dealId: string;
                message: string;
              }[];
              /** @description deals with at least one capability on */
              examined: number;
              /** @description confirm gates autopilot cannot pass */
              gatesWaiting: {
                dealId: string;
                needs: string;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description the inventory pass: supplier orders placed alone (queued) and those stopped at approval (inventory_cap) */
              inventory: {
                examined: number;
                pendingApproval: string[];
                queued: string[];
              };
              /** @description deals whose operator-started sandbox negotiation took a round */
              negotiationSteps: string[];
              raised: {
                dealId: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /** @description deals whose converged terms the autopilot reviewed (contracting on): now at lease_chat with lease_send */
              reviewed: string[];
              /** @description deals whose shipment autopilot dispatched (sandbox) */
              shipped: string[];
              /** @description deals whose outreach run sent a touch */
              touches: string[];
              /** @description what the autopilot left to a person within its bounds (a venue it may not accept alone) */
              waiting: {
                /** @enum {string} */
                checkpoint:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
                dealId: string;
                reason: string;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyCatalog: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @constant */
              currency: 'USD';
              tiers: {
                name: string;
                priceCents: number;
                priceUsd: number;
                /** @enum {string} */
                tier: 'entry' | 'pro' | 'pro-max';
              }[];
              version: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyCheckpoints: {
    parameters: {
      query?: {
        dealId?: string;
        kind?:
          | 'scout_outreach'
          | 'negotiation_review'
          | 'lease_send'
          | 'terms_approval'
          | 'money'
          | 'cashless_fail'
          | 'call_outcome'
          | 'contact_verify'
          | 'mode_resume'
          | 'negotiation_target'
          | 'reply_review'
          | 'inventory_cap';
        page?: number;
        resolved?: 'true' | 'false';
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                dealId: string;
                /** @enum {string} */
                dealStage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
                detail: string | null;
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
                raisedAt: string;
                raisedBy: string;
                resolved: boolean;
                resolvedAt: string | null;
                resolvedBy: string | null;
                /** @description the action that resolves it */
                resolvesWith: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyCheckpointsByCheckpointIdAcknowledge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        checkpointId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              dealId: string;
              /** @enum {string} */
              dealStage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              detail: string | null;
              id: string;
              /** @enum {string} */
              kind:
                | 'scout_outreach'
                | 'negotiation_review'
                | 'lease_send'
                | 'terms_approval'
                | 'money'
                | 'cashless_fail'
                | 'call_outcome'
                | 'contact_verify'
                | 'mode_resume'
                | 'negotiation_target'
                | 'reply_review'
                | 'inventory_cap';
              raisedAt: string;
              raisedBy: string;
              resolved: boolean;
              resolvedAt: string | null;
              resolvedBy: string | null;
              /** @description the action that resolves it */
              resolvesWith: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDeals: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        stage?:
          | 'shortlisting'
          | 'pre_ordered'
          | 'outreach'
          | 'lease_chat'
          | 'lease_sent'
          | 'signed'
          | 'ready_to_ship'
          | 'shipped'
          | 'installing'
          | 'live'
          | 'cancelled';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description per-deal override: true, false, or null (follows the portfolio) */
                autopilot: boolean | null;
                cancelReason: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                /** @enum {string} */
                hardwareVariant: 'reyeah' | 'agent';
                id: string;
                install: {
                  state: string | null;
                  workOrderId: string | null;
                };
                lease: {
                  sent: boolean;
                  signed: boolean;
                };
                /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
                machineNo: string | null;
                money: {
                  machinePaidUsd: number;
                  paymentIds: string[];
                  preorderPaidUsd: number;
                  refundedUsd: number;
                };
                negotiation: {
                  approvalReasons: string[];
                  envelope: {
                    revenueShareMaxPct: number;
                    revenueShareTargetPct: number;
                    termMaxMonths: number;
                    termMinMonths: number;
                    termTargetMonths: number;
                  } | null;
                  /** @enum {string} */
                  status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                  terms: {
                    outOfMandateAsks: number;
                    revenueSharePct: number;
                    rounds: number;
                    termMonths: number;
                  } | null;
                };
                note: string | null;
                onboarding: {
                  online: boolean;
                  planogram: boolean;
                  /** @enum {string} */
                  terminal: 'bound' | 'failed' | 'pending';
                } | null;
                openCheckpoints: {
                  id: string;
                  /** @enum {string} */
                  kind:
                    | 'scout_outreach'
                    | 'negotiation_review'
                    | 'lease_send'
                    | 'terms_approval'
                    | 'money'
                    | 'cashless_fail'
                    | 'call_outcome'
                    | 'contact_verify'
                    | 'mode_resume'
                    | 'negotiation_target'
                    | 'reply_review'
                    | 'inventory_cap';
                }[];
                /**
                 * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
                 * @enum {string}
                 */
                origin: 'request' | 'preorder' | 'pool';
                /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
                outreach?: {
                  channelOrder: ('email' | 'sms' | 'voice')[];
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                  lastTouchAt: string | null;
                  /** @description channels the venue opted out of */
                  optedOut: ('email' | 'sms' | 'voice')[];
                  replies: number;
                  touches: number;
                  /** @description the directory venue contacted */
                  venueId: string;
                };
                priceUsd: number;
                shipment: {
                  carrier: string;
                  trackingNumber: string;
                } | null;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
                stagesVisited: (
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled'
                )[];
                /** @enum {string} */
                tier: 'entry' | 'pro' | 'pro-max';
                timeline: {
                  /** @enum {string} */
                  actor: 'operator' | 'autopilot' | 'system';
                  at: string;
                  /** @enum {string} */
                  channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                  event: string;
                  scriptVersion: string | null;
                  seq: number;
                  /** @enum {string} */
                  stage:
                    | 'shortlisting'
                    | 'pre_ordered'
                    | 'outreach'
                    | 'lease_chat'
                    | 'lease_sent'
                    | 'signed'
                    | 'ready_to_ship'
                    | 'shipped'
                    | 'installing'
                    | 'live'
                    | 'cancelled';
                }[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                updatedAt: string;
                venue: {
                  address: string | null;
                  lat: number;
                  lng: number;
                  name: string;
                } | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDeals: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description per-deal override of the portfolio autopilot; null follows the portfolio
           * @default null
           */
          autopilot?: boolean | null;
          /**
           * @description `reyeah`-family or agent-family cabinet
           * @enum {string}
           */
          hardwareVariant: 'reyeah' | 'agent';
          /** @default null */
          note?: (string & (unknown & unknown)) | null;
          /** @enum {string} */
          tier: 'entry' | 'pro' | 'pro-max';
          /**
           * @description a venue already known (skips the shortlist once pre-ordered); null: the scout shortlists
           * @default null
           */
          venue?: {
            /** @default null */
            address?: (string & (unknown & unknown)) | null;
            lat: number;
            lng: number;
            name: string & (unknown & unknown);
          } | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdAdvance: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          to: 'shortlisting' | 'outreach';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdAssistOutreachDraft: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          senderName?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              body: string;
              scriptId: string;
              scriptVersion: string;
              subject: string;
              to: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdAutopilot: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          enabled: boolean | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdInstallDispatch: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              assignee: string | null;
              createdAt: string;
              dealId: string;
              id: string;
              scheduledFor: string | null;
              /** @enum {string} */
              state: 'open' | 'assigned' | 'scheduled' | 'en_route' | 'on_site' | 'completed';
              /** @enum {string} */
              type: 'dfy_install' | 'dfy_refill';
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdLeaseSend: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdLeaseSignature: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdMoney: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              dealId: string;
              /** @description the payment awaiting the operator (its checkoutUrl); null: nothing to pay now */
              payment: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              } | null;
              /** @description the payments taken for this deal, oldest first, each with its refund */
              payments: {
                amountUsd: number;
                currency: string;
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout' | 'pool';
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                paidAt: string;
                /** @description where the money was taken; null: recorded without a processor (the sandbox, the investment pool) */
                processor: string | null;
                /** @description a processor payment refunded through the processor: owed → issued, or failed with its reason (retry: POST …/refund); null: no refund through a processor */
                refund: {
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                  at: string | null;
                  /** @description the processor's reason for a failed refund */
                  reason: string | null;
                  /** @description the processor's refund */
                  refundId: string | null;
                  /** @enum {string} */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; when the refund was decided (the deal cancelled before shipping) */
                refundedAt: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdNegotiation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description whose move it is while running */
              awaiting: ('venue' | 'engine') | null;
              /** @description who answers for the venue; null before the start */
              counterparty: ('sandbox_persona' | 'channel') | null;
              dealId: string;
              /** @enum {string} */
              dealStage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              /** @description the mandate in force: the latest version, fixed once started */
              mandate: {
                createdAt: string;
                dealId: string;
                mandate: {
                  dealBreakers: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installWindow: {
                    earliest: string;
                    latest: string;
                  };
                  powerArrangements: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                };
                version: number;
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              } | null;
              outOfMandateAsks: number;
              rounds: number;
              /** @description our last offer */
              standingOffer: {
                asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installDate: string;
                /** @enum {string} */
                power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                revenueSharePct: number;
                termMonths: number;
              } | null;
              /** @enum {string} */
              status: 'not_started' | 'running' | 'converged' | 'impasse' | 'outside_mandate';
              turns: {
                accept: boolean;
                /** @enum {string} */
                actor: 'engine' | 'venue' | 'operator';
                at: string;
                channel: string;
                inEnvelope: boolean;
                mandateVersion: number;
                message: string;
                proposal: {
                  asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installDate: string;
                  /** @enum {string} */
                  power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                  revenueSharePct: number;
                  termMonths: number;
                };
                reasoning: string;
                round: number;
                seq: number;
                violations: string[];
                walkAway: boolean;
              }[];
              vertical: ('office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other') | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationAdvise: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              standingOffer: {
                asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installDate: string;
                /** @enum {string} */
                power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                revenueSharePct: number;
                termMonths: number;
              } | null;
              /** @description a suggested next move; nothing is stored and the standing offer does not move */
              suggestion: {
                accept: boolean;
                /** @enum {string} */
                actor: 'engine' | 'venue' | 'operator';
                inEnvelope: boolean;
                message: string;
                proposal: {
                  asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installDate: string;
                  /** @enum {string} */
                  power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                  revenueSharePct: number;
                  termMonths: number;
                };
                reasoning: string;
                round: number;
                violations: string[];
                walkAway: boolean;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationApproveTerms: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putDfyDealsByDealIdNegotiationEnvelope: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default [] */
          dealBreakers?: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
          /**
           * @description install dates the operator can meet, inclusive; null: from 7 to 60 days after the mandate is set
           * @default null
           */
          installWindow?: {
            /** Format: date */
            earliest: string;
            /** Format: date */
            latest: string;
          } | null;
          /**
           * @description acceptable power arrangements, preferred first; default: all
           * @default [
           *       "venue_outlet",
           *       "operator_reimburses",
           *       "dedicated_circuit"
           *     ]
           */
          powerArrangements?: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
          revenueShareMaxPct: number;
          revenueShareTargetPct: number;
          termMaxMonths: number;
          termMinMonths: number;
          termTargetMonths: number;
          /**
           * @description the venue's vertical: prior convergence is compared within it
           * @default other
           * @enum {string}
           */
          vertical?: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              createdAt: string;
              dealId: string;
              mandate: {
                dealBreakers: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installWindow: {
                  earliest: string;
                  latest: string;
                };
                powerArrangements: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
                revenueShareMaxPct: number;
                revenueShareTargetPct: number;
                termMaxMonths: number;
                termMinMonths: number;
                termTargetMonths: number;
              };
              version: number;
              /** @enum {string} */
              vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdNegotiationGraph: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              dealId: string;
              edges: {
                from: string;
                /** @enum {string} */
                kind: 'mandates' | 'proposed_by' | 'counters' | 'concedes_on' | 'led_to' | 'signed';
                label: string;
                to: string;
              }[];
              nodes: {
                data: {
                  [key: string]: unknown;
                };
                id: string;
                /** @enum {string} */
                kind: 'party' | 'term_sheet' | 'escalation' | 'outcome' | 'contract';
                label: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationOperatorTurn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description what the venue reads; default: rendered from the proposal */
          message?: string & (unknown & unknown);
          /** @description validated, NOT clamped to the mandate: a move outside it is flagged */
          proposal: {
            /** @default [] */
            asks?: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
            /** Format: date */
            installDate: string;
            /** @enum {string} */
            power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
            revenueSharePct: number;
            termMonths: number;
          };
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description whose move it is while running */
              awaiting: ('venue' | 'engine') | null;
              /** @description who answers for the venue; null before the start */
              counterparty: ('sandbox_persona' | 'channel') | null;
              dealId: string;
              /** @enum {string} */
              dealStage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              /** @description the mandate in force: the latest version, fixed once started */
              mandate: {
                createdAt: string;
                dealId: string;
                mandate: {
                  dealBreakers: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installWindow: {
                    earliest: string;
                    latest: string;
                  };
                  powerArrangements: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                };
                version: number;
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              } | null;
              outOfMandateAsks: number;
              rounds: number;
              /** @description our last offer */
              standingOffer: {
                asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installDate: string;
                /** @enum {string} */
                power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                revenueSharePct: number;
                termMonths: number;
              } | null;
              /** @enum {string} */
              status: 'not_started' | 'running' | 'converged' | 'impasse' | 'outside_mandate';
              turns: {
                accept: boolean;
                /** @enum {string} */
                actor: 'engine' | 'venue' | 'operator';
                at: string;
                channel: string;
                inEnvelope: boolean;
                mandateVersion: number;
                message: string;
                proposal: {
                  asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installDate: string;
                  /** @enum {string} */
                  power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                  revenueSharePct: number;
                  termMonths: number;
                };
                reasoning: string;
                round: number;
                seq: number;
                violations: string[];
                walkAway: boolean;
              }[];
              vertical: ('office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other') | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationReview: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationStart: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
          /** @description a new mandate version stored first; omitted: the latest PUT one */
          envelope?: {
            /** @default [] */
            dealBreakers?: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
            /**
             * @description install dates the operator can meet, inclusive; null: from 7 to 60 days after the mandate is set
             * @default null
             */
            installWindow?: {
              /** Format: date */
              earliest: string;
              /** Format: date */
              latest: string;
            } | null;
            /**
             * @description acceptable power arrangements, preferred first; default: all
             * @default [
             *       "venue_outlet",
             *       "operator_reimburses",
             *       "dedicated_circuit"
             *     ]
             */
            powerArrangements?: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
            revenueShareMaxPct: number;
            revenueShareTargetPct: number;
            termMaxMonths: number;
            termMinMonths: number;
            termTargetMonths: number;
            /**
             * @description the venue's vertical: prior convergence is compared within it
             * @default other
             * @enum {string}
             */
            vertical?: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
          };
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description whose move it is while running */
              awaiting: ('venue' | 'engine') | null;
              /** @description who answers for the venue; null before the start */
              counterparty: ('sandbox_persona' | 'channel') | null;
              dealId: string;
              /** @enum {string} */
              dealStage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              /** @description the mandate in force: the latest version, fixed once started */
              mandate: {
                createdAt: string;
                dealId: string;
                mandate: {
                  dealBreakers: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installWindow: {
                    earliest: string;
                    latest: string;
                  };
                  powerArrangements: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                };
                version: number;
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              } | null;
              outOfMandateAsks: number;
              rounds: number;
              /** @description our last offer */
              standingOffer: {
                asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installDate: string;
                /** @enum {string} */
                power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                revenueSharePct: number;
                termMonths: number;
              } | null;
              /** @enum {string} */
              status: 'not_started' | 'running' | 'converged' | 'impasse' | 'outside_mandate';
              turns: {
                accept: boolean;
                /** @enum {string} */
                actor: 'engine' | 'venue' | 'operator';
                at: string;
                channel: string;
                inEnvelope: boolean;
                mandateVersion: number;
                message: string;
                proposal: {
                  asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installDate: string;
                  /** @enum {string} */
                  power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                  revenueSharePct: number;
                  termMonths: number;
                };
                reasoning: string;
                round: number;
                seq: number;
                violations: string[];
                walkAway: boolean;
              }[];
              vertical: ('office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other') | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationStep: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description at most this many venue answers (each followed by ours); stops at convergence or impasse
           * @default 24
           */
          rounds?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description whose move it is while running */
              awaiting: ('venue' | 'engine') | null;
              /** @description who answers for the venue; null before the start */
              counterparty: ('sandbox_persona' | 'channel') | null;
              dealId: string;
              /** @enum {string} */
              dealStage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              /** @description the mandate in force: the latest version, fixed once started */
              mandate: {
                createdAt: string;
                dealId: string;
                mandate: {
                  dealBreakers: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installWindow: {
                    earliest: string;
                    latest: string;
                  };
                  powerArrangements: ('venue_outlet' | 'operator_reimburses' | 'dedicated_circuit')[];
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                };
                version: number;
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              } | null;
              outOfMandateAsks: number;
              rounds: number;
              /** @description our last offer */
              standingOffer: {
                asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                installDate: string;
                /** @enum {string} */
                power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                revenueSharePct: number;
                termMonths: number;
              } | null;
              /** @enum {string} */
              status: 'not_started' | 'running' | 'converged' | 'impasse' | 'outside_mandate';
              turns: {
                accept: boolean;
                /** @enum {string} */
                actor: 'engine' | 'venue' | 'operator';
                at: string;
                channel: string;
                inEnvelope: boolean;
                mandateVersion: number;
                message: string;
                proposal: {
                  asks: ('exclusivity' | 'upfront_fee' | 'removal_on_demand' | 'minimum_guarantee')[];
                  installDate: string;
                  /** @enum {string} */
                  power: 'venue_outlet' | 'operator_reimburses' | 'dedicated_circuit';
                  revenueSharePct: number;
                  termMonths: number;
                };
                reasoning: string;
                round: number;
                seq: number;
                violations: string[];
                walkAway: boolean;
              }[];
              vertical: ('office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other') | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdNegotiationTerms: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default 0 */
          outOfMandateAsks?: number;
          revenueSharePct: number;
          rounds: number;
          termMonths: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdOrderCheckout: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description ignored: every amount comes from the server catalog */
          amountUsd?: number;
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdOutreachPreview: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              channels: {
                /** @enum {string} */
                channel: 'email' | 'sms' | 'voice';
                eligibleNow: boolean;
                message: {
                  body: string;
                  /** @enum {string} */
                  channel: 'email' | 'sms' | 'voice';
                  scriptId: string;
                  scriptVersion: string;
                  subject: string | null;
                  unsubscribeUrl: string | null;
                };
                reason: ('no_contact' | 'not_configured' | 'opted_out' | 'outside_window' | 'frequency_cap') | null;
                to: string | null;
              }[];
              dealId: string;
              /** @enum {string} */
              scriptKind: 'intro' | 'follow_up';
              scriptVersion: string;
              stage: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdOutreachStart: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description the rotation order for this deal; default email, sms, voice */
          channelOrder?: ('email' | 'sms' | 'voice')[];
          /** @description a directory venue, for a deal that reached outreach without one (a pre-order with its venue named) */
          venueId?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              dealId: string;
              skipped: {
                /** @enum {string} */
                channel: 'email' | 'sms' | 'voice';
                /** @enum {string} */
                reason: 'no_contact' | 'not_configured' | 'opted_out' | 'outside_window' | 'frequency_cap';
              }[];
              touch: {
                /** @enum {string} */
                channel: 'email' | 'sms' | 'voice';
                messageId: string;
                scriptId: string;
                scriptVersion: string;
                status: string;
                to: string;
              } | null;
              waiting: {
                /** @enum {string} */
                reason: 'cadence' | 'reply_review' | 'no_channel_now' | 'no_channel';
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the cadence’s next slot */
                until: string | null;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdPreorder: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdRefund: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdReplay: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description the deal re-applied from the first event; byte for byte the stored deal */
              deal: {
                /** @description per-deal override: true, false, or null (follows the portfolio) */
                autopilot: boolean | null;
                cancelReason: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                /** @enum {string} */
                hardwareVariant: 'reyeah' | 'agent';
                id: string;
                install: {
                  state: string | null;
                  workOrderId: string | null;
                };
                lease: {
                  sent: boolean;
                  signed: boolean;
                };
                /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
                machineNo: string | null;
                money: {
                  machinePaidUsd: number;
                  paymentIds: string[];
                  preorderPaidUsd: number;
                  refundedUsd: number;
                };
                negotiation: {
                  approvalReasons: string[];
                  envelope: {
                    revenueShareMaxPct: number;
                    revenueShareTargetPct: number;
                    termMaxMonths: number;
                    termMinMonths: number;
                    termTargetMonths: number;
                  } | null;
                  /** @enum {string} */
                  status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                  terms: {
                    outOfMandateAsks: number;
                    revenueSharePct: number;
                    rounds: number;
                    termMonths: number;
                  } | null;
                };
                note: string | null;
                onboarding: {
                  online: boolean;
                  planogram: boolean;
                  /** @enum {string} */
                  terminal: 'bound' | 'failed' | 'pending';
                } | null;
                openCheckpoints: {
                  id: string;
                  /** @enum {string} */
                  kind:
                    | 'scout_outreach'
                    | 'negotiation_review'
                    | 'lease_send'
                    | 'terms_approval'
                    | 'money'
                    | 'cashless_fail'
                    | 'call_outcome'
                    | 'contact_verify'
                    | 'mode_resume'
                    | 'negotiation_target'
                    | 'reply_review'
                    | 'inventory_cap';
                }[];
                /**
                 * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
                 * @enum {string}
                 */
                origin: 'request' | 'preorder' | 'pool';
                /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
                outreach?: {
                  channelOrder: ('email' | 'sms' | 'voice')[];
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                  lastTouchAt: string | null;
                  /** @description channels the venue opted out of */
                  optedOut: ('email' | 'sms' | 'voice')[];
                  replies: number;
                  touches: number;
                  /** @description the directory venue contacted */
                  venueId: string;
                };
                priceUsd: number;
                shipment: {
                  carrier: string;
                  trackingNumber: string;
                } | null;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
                stagesVisited: (
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled'
                )[];
                /** @enum {string} */
                tier: 'entry' | 'pro' | 'pro-max';
                timeline: {
                  /** @enum {string} */
                  actor: 'operator' | 'autopilot' | 'system';
                  at: string;
                  /** @enum {string} */
                  channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                  event: string;
                  scriptVersion: string | null;
                  seq: number;
                  /** @enum {string} */
                  stage:
                    | 'shortlisting'
                    | 'pre_ordered'
                    | 'outreach'
                    | 'lease_chat'
                    | 'lease_sent'
                    | 'signed'
                    | 'ready_to_ship'
                    | 'shipped'
                    | 'installing'
                    | 'live'
                    | 'cancelled';
                }[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                updatedAt: string;
                venue: {
                  address: string | null;
                  lat: number;
                  lng: number;
                  name: string;
                } | null;
              };
              dealId: string;
              events: {
                actor: string;
                at: string;
                channel: string;
                data: {
                  [key: string]: unknown;
                };
                scriptVersion: string | null;
                seq: number;
              }[];
              matchesStored: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdScoutAccept: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          venue: {
            /** @default null */
            address?: (string & (unknown & unknown)) | null;
            lat: number;
            lng: number;
            name: string & (unknown & unknown);
          };
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdShippingTracking: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          carrier: string & (unknown & unknown);
          trackingNumber: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDealsByDealIdShortlist: {
    parameters: {
      query?: {
        lat?: number;
        lng?: number;
        size?: number;
        vertical?: string;
      };
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              dealId: string;
              records: {
                address: string | null;
                dailyVisitors: number;
                distanceKm: number | null;
                email: string | null;
                id: string;
                lat: number;
                lng: number;
                name: string;
                phone: string | null;
                score: number;
                timeZone: string;
                vertical: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDealsByDealIdShortlistAccept: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dealId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          venueId: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyDirectory: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              records: {
                address: string | null;
                dailyVisitors: number;
                email: string | null;
                id: string;
                lat: number;
                lng: number;
                name: string;
                phone: string | null;
                timeZone: string;
                vertical: string;
              }[];
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyDirectoryImport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          venues: {
            /** @default null */
            address?: (string & (unknown & unknown)) | null;
            dailyVisitors: number;
            /** @default null */
            email?: string | null;
            lat: number;
            lng: number;
            name: string & (unknown & unknown);
            /** @default null */
            phone?: string | null;
            /** @description the venue’s IANA time zone: voice and text only 9:00–20:00 there */
            timeZone: string & (unknown & unknown);
            /** @description e.g. gym, office, laundromat, school, hospital */
            vertical: string & (unknown & unknown);
          }[];
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              created: number;
              total: number;
              updated: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyFleets: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description capital awaiting allocation */
              balanceUsd: number;
              /**
               * @description the pool fee on pool-funded machines: 2% × revenue + 2% × max(0, revenue − costs − 2% × revenue), month to date
               * @constant
               */
              feePercentage: 2;
              /** @description investments and allocations, newest first (the latest 200 of each) */
              history: (
                | {
                    amountUsd: number;
                    /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; when it was made */
                    at: string;
                    id: string;
                    /** @constant */
                    kind: 'investment';
                    /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                    paidAt: string | null;
                    paymentIntentId: string;
                    /** @enum {string} */
                    status: 'awaiting_payment' | 'paid';
                  }
                | {
                    /** @description the catalog price of the tier, taken from the balance */
                    amountUsd: number;
                    /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                    at: string;
                    balanceAfterUsd: number;
                    /** @description the fully managed deal it funded */
                    dealId: string;
                    id: string;
                    /** @description the investment whose payment funded it */
                    investmentId: string;
                    /** @constant */
                    kind: 'allocation';
                    /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; the deal was cancelled before shipping and its price went back to the pool */
                    returnedAt: string | null;
                    /** @enum {string} */
                    tier: 'entry' | 'pro' | 'pro-max';
                  }
              )[];
              /** @description deals the pool funded (a deal cancelled before shipping and returned is not counted) */
              machinesFunded: number;
              /** @enum {string} */
              targetModel: 'entry' | 'pro' | 'pro-max';
              /** @description the catalog price of the target tier: each time the balance covers it, a deal is funded */
              targetPriceUsd: number;
              /** @description every paid investment */
              totalInvestedUsd: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyFleets: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
          /** @description USD, 50 to 250,000, in whole cents; charged through the payment processor */
          investUsd: number;
          /**
           * @description the catalog tier the pool funds from now on (default pro; left out: the pool's current target)
           * @enum {string}
           */
          targetModel?: 'entry' | 'pro' | 'pro-max';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description where the payment is made (the processor's hosted page) */
              checkoutUrl: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @constant */
              currency: 'USD';
              id: string;
              investUsd: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              paidAt: string | null;
              paymentIntentId: string;
              processor: string;
              /**
               * @description awaiting_payment until the processor reports the payment; then paid and in the pool
               * @enum {string}
               */
              status: 'awaiting_payment' | 'paid';
              /**
               * @description the tier the pool funds
               * @enum {string}
               */
              targetModel: 'entry' | 'pro' | 'pro-max';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyFleetsWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          data: {
            /** @description Integer cents: must equal the purchase quote */
            amountCents: number;
            currency: string;
            intentId: string;
            purchaseId: string;
          };
          /** @description The event id: applied at most once */
          id: string;
          /** @description payment_intent.succeeded (other types are recorded and change nothing) */
          type: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data:
              | {
                  /** @description the deals this payment funded */
                  dealsFunded: string[];
                  /** @description This event id (or this investment) was already applied: nothing changed */
                  duplicate: boolean;
                  eventId: string;
                  investmentId: string | null;
                  status: ('awaiting_payment' | 'paid') | null;
                  type: string;
                }
              | {
                  eventId: string;
                  /** @description that place's own answer, as its webhook would give it (null: none applied it) */
                  result: {
                    [key: string]: unknown;
                  } | null;
                  /** @description the webhook path of the place that applied the event (its metadata.webhookPath); null: no place of this service has that path — acknowledged, recorded in the audit log, nothing changed */
                  routedTo: string | null;
                  type: string;
                };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyInstallOrdersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              assignee: string | null;
              createdAt: string;
              dealId: string;
              id: string;
              scheduledFor: string | null;
              /** @enum {string} */
              state: 'open' | 'assigned' | 'scheduled' | 'en_route' | 'on_site' | 'completed';
              /** @enum {string} */
              type: 'dfy_install' | 'dfy_refill';
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyInstallOrdersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          assignee?: string & (unknown & unknown);
          /** Format: date-time */
          scheduledFor?: string;
          /** @enum {string} */
          state: 'open' | 'assigned' | 'scheduled' | 'en_route' | 'on_site' | 'completed';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              assignee: string | null;
              createdAt: string;
              dealId: string;
              id: string;
              scheduledFor: string | null;
              /** @enum {string} */
              state: 'open' | 'assigned' | 'scheduled' | 'en_route' | 'on_site' | 'completed';
              /** @enum {string} */
              type: 'dfy_install' | 'dfy_refill';
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyInventoryOrdersByIdApprove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              actualCostUsd: number | null;
              costIsEstimate: boolean;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              dealId: string;
              estimatedCostUsd: number;
              id: string;
              lines: {
                aisleNo: number;
                /** @description 55% of retail */
                estUnitCostUsd: number;
                productName: string | null;
                quantity: number;
                retailUsd: number;
                sku: string;
              }[];
              machineNo: string | null;
              purchaseOrderId: string | null;
              /** @enum {string} */
              status: 'queued' | 'pending_approval' | 'received' | 'cancelled';
              workOrderId: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyInventoryOrdersByIdReceive: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description actual unit cost per SKU; a SKU left out keeps its estimate (55% of retail) and the order stays flagged as an estimate */
          unitCostsUsd?: {
            [key: string]: number;
          };
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              actualCostUsd: number | null;
              costIsEstimate: boolean;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              dealId: string;
              estimatedCostUsd: number;
              id: string;
              lines: {
                aisleNo: number;
                /** @description 55% of retail */
                estUnitCostUsd: number;
                productName: string | null;
                quantity: number;
                retailUsd: number;
                sku: string;
              }[];
              machineNo: string | null;
              purchaseOrderId: string | null;
              /** @enum {string} */
              status: 'queued' | 'pending_approval' | 'received' | 'cancelled';
              workOrderId: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyInventorySuggestions: {
    parameters: {
      query: {
        machineNo: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description the tick would order for this machine: autoInventory on and the inventory capability on */
              automated: boolean;
              /** @constant */
              costIsEstimate: true;
              estimatedCostUsd: number;
              lines: {
                aisleNo: number;
                /** @description 55% of retail */
                estUnitCostUsd: number;
                productName: string | null;
                quantity: number;
                retailUsd: number;
                sku: string;
              }[];
              machineNo: string;
              monthlyCapUsd: number;
              openOrderId: string | null;
              spentThisMonthUsd: number;
              wouldNeedApproval: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyInventoryTick: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              examined: number;
              ordered: {
                actualCostUsd: number | null;
                costIsEstimate: boolean;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                dealId: string;
                estimatedCostUsd: number;
                id: string;
                lines: {
                  aisleNo: number;
                  /** @description 55% of retail */
                  estUnitCostUsd: number;
                  productName: string | null;
                  quantity: number;
                  retailUsd: number;
                  sku: string;
                }[];
                machineNo: string | null;
                purchaseOrderId: string | null;
                /** @enum {string} */
                status: 'queued' | 'pending_approval' | 'received' | 'cancelled';
                workOrderId: string;
              }[];
              skipped: {
                machineNo: string | null;
                reason: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyModeByKindById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a deal id, or a machine number */
        id: string;
        kind: 'deal' | 'machine';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              capabilities: {
                contracting: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                install: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                inventory: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                negotiation: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                outreach: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                placement: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
              };
              concierge: {
                active: boolean;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                enrolledAt: string | null;
                enrolments: {
                  enrolledAt: string;
                  /** @enum {string} */
                  kind: 'deal' | 'machine';
                  takenBackAt: string | null;
                }[];
                /** @description accrued by enrolled days over every enrolment of the placement; stays owed after takeback */
                feeOwedUsd: number;
                feePerMonthUsd: number;
              };
              dealId: string | null;
              id: string;
              /**
               * @description concierge installs with the ops/install team; otherwise the portfolio installMode
               * @enum {string}
               */
              installBy: 'team' | 'self';
              /** @enum {string} */
              kind: 'deal' | 'machine';
              /**
               * @description all on: auto; all off: manual; mixed: hybrid
               * @enum {string}
               */
              label: 'auto' | 'hybrid' | 'manual';
              machineNo: string | null;
              toggles: {
                contracting: boolean | null;
                install: boolean | null;
                inventory: boolean | null;
                negotiation: boolean | null;
                outreach: boolean | null;
                placement: boolean | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putDfyModeByKindById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a deal id, or a machine number */
        id: string;
        kind: 'deal' | 'machine';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          contracting?: boolean | null;
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          install?: boolean | null;
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          inventory?: boolean | null;
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          negotiation?: boolean | null;
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          outreach?: boolean | null;
          /** @description true/false sets the toggle, null clears it, absent keeps it */
          placement?: boolean | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              capabilities: {
                contracting: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                install: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                inventory: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                negotiation: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                outreach: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                placement: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
              };
              concierge: {
                active: boolean;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                enrolledAt: string | null;
                enrolments: {
                  enrolledAt: string;
                  /** @enum {string} */
                  kind: 'deal' | 'machine';
                  takenBackAt: string | null;
                }[];
                /** @description accrued by enrolled days over every enrolment of the placement; stays owed after takeback */
                feeOwedUsd: number;
                feePerMonthUsd: number;
              };
              dealId: string | null;
              id: string;
              /**
               * @description concierge installs with the ops/install team; otherwise the portfolio installMode
               * @enum {string}
               */
              installBy: 'team' | 'self';
              /** @enum {string} */
              kind: 'deal' | 'machine';
              /**
               * @description all on: auto; all off: manual; mixed: hybrid
               * @enum {string}
               */
              label: 'auto' | 'hybrid' | 'manual';
              machineNo: string | null;
              toggles: {
                contracting: boolean | null;
                install: boolean | null;
                inventory: boolean | null;
                negotiation: boolean | null;
                outreach: boolean | null;
                placement: boolean | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyModeByKindByIdConcierge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description a deal id, or a machine number */
        id: string;
        kind: 'deal' | 'machine';
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          action: 'enroll' | 'takeback';
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              capabilities: {
                contracting: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                install: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                inventory: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                negotiation: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                outreach: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
                placement: {
                  /**
                   * @description the level of key rule 4 that decided it
                   * @enum {string}
                   */
                  decidedBy: 'concierge' | 'toggle' | 'deal_autopilot' | 'portfolio_default' | 'autopilot';
                  on: boolean;
                };
              };
              concierge: {
                active: boolean;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                enrolledAt: string | null;
                enrolments: {
                  enrolledAt: string;
                  /** @enum {string} */
                  kind: 'deal' | 'machine';
                  takenBackAt: string | null;
                }[];
                /** @description accrued by enrolled days over every enrolment of the placement; stays owed after takeback */
                feeOwedUsd: number;
                feePerMonthUsd: number;
              };
              dealId: string | null;
              id: string;
              /**
               * @description concierge installs with the ops/install team; otherwise the portfolio installMode
               * @enum {string}
               */
              installBy: 'team' | 'self';
              /** @enum {string} */
              kind: 'deal' | 'machine';
              /**
               * @description all on: auto; all off: manual; mixed: hybrid
               * @enum {string}
               */
              label: 'auto' | 'hybrid' | 'manual';
              machineNo: string | null;
              toggles: {
                contracting: boolean | null;
                install: boolean | null;
                inventory: boolean | null;
                negotiation: boolean | null;
                outreach: boolean | null;
                placement: boolean | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyNegotiationGraphs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              negotiations: {
                dealId: string;
                escalations: number;
                finalPct: number | null;
                mandateVersion: number;
                openingPct: number | null;
                outOfMandateAsks: number;
                rounds: number;
                /** @enum {string} */
                status: 'not_started' | 'running' | 'converged' | 'impasse' | 'outside_mandate';
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              }[];
              verticals: {
                avgRounds: number;
                converged: number;
                maxPct: number;
                medianPct: number;
                minPct: number;
                /** @enum {string} */
                vertical: 'office' | 'gym' | 'hotel' | 'school' | 'hospital' | 'retail' | 'transit' | 'laundromat' | 'other';
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyOutreachCallbacksInbound: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default  */
          Body?: string;
          /**
           * @default sms
           * @enum {string}
           */
          Channel?: 'sms' | 'email';
          From: string;
        };
        'application/x-www-form-urlencoded': {
          /** @default  */
          Body?: string;
          /**
           * @default sms
           * @enum {string}
           */
          Channel?: 'sms' | 'email';
          From: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              accepted: boolean;
              dealId: string | null;
              effect: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyOutreachCallbacksStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          CallSid?: string;
          CallStatus?: string;
          MessageSid?: string;
          MessageStatus?: string;
        };
        'application/x-www-form-urlencoded': {
          CallSid?: string;
          CallStatus?: string;
          MessageSid?: string;
          MessageStatus?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              accepted: boolean;
              dealId: string | null;
              effect: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyOutreachUnsubscribeByToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              unsubscribed: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyOutreachUnsubscribeByToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              unsubscribed: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyPaymentsWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          data: {
            /** @description Integer cents: must equal the purchase quote */
            amountCents: number;
            currency: string;
            intentId: string;
            purchaseId: string;
          };
          /** @description The event id: applied at most once */
          id: string;
          /** @description payment_intent.succeeded (other types are recorded and change nothing) */
          type: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data:
              | {
                  dealId: string | null;
                  /** @description the event id (or another event of the same intent) was applied before: nothing changed */
                  duplicate: boolean;
                  eventId: string;
                  paymentId: string;
                  /** @description the deal could no longer take this payment (cancelled or moved on meanwhile): recorded, and owed back through the processor */
                  refundOwed: boolean;
                  /** @description the payment after this event (expired: its page can no longer be paid; ask again) */
                  status: ('awaiting_payment' | 'paid' | 'expired') | null;
                  type: string;
                }
              | {
                  eventId: string;
                  /** @description that place's own answer, as its webhook would give it (null: none applied it) */
                  result: {
                    [key: string]: unknown;
                  } | null;
                  /** @description the webhook path of the place that applied the event (its metadata.webhookPath); null: no place of this service has that path — acknowledged, recorded in the audit log, nothing changed */
                  routedTo: string | null;
                  type: string;
                };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyPortfolio: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description catalog price of the machines paid for and not refunded */
              capitalValueUsd: number;
              checkpointInbox: {
                byKind: {
                  [key: string]: number;
                };
                open: number;
              };
              costLines: {
                estimate: boolean;
                name: string;
                usd: number;
              }[];
              dealsByStage: {
                [key: string]: number;
              };
              dealsInFlight: number;
              /** @description live done-for-you machines */
              machinesOwned: number;
              netMtdUsd: number;
              perMachineYield: {
                capitalUsd: number;
                dealId: string;
                machineNo: string;
                revenueMtdUsd: number;
                /** @description month-to-date revenue / capital × 100 */
                yieldPct: number;
              }[];
              revenueMtdUsd: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyPortfolioSecurities: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description catalog price of the machines paid for and not refunded */
              capitalValueUsd: number;
              checkpointInbox: {
                byKind: {
                  [key: string]: number;
                };
                open: number;
              };
              costLines: {
                estimate: boolean;
                name: string;
                usd: number;
              }[];
              dealsByStage: {
                [key: string]: number;
              };
              dealsInFlight: number;
              fleetRollups: {
                avgYieldPct: number;
                machines: number;
                profitMtdUsd: number;
                revenueMtdUsd: number;
              };
              hasEstimates: boolean;
              machines: {
                capitalUsd: number;
                dealId: string;
                hasEstimates: boolean;
                machineNo: string;
                /** @description the pool fee month to date (0 unless pool-funded), on the costs at estimate; part of profitMtdUsd */
                poolFeeMtdUsd: number;
                /** @description funded by the investment pool: the pool fee applies */
                poolFunded: boolean;
                profitActualMtdUsd: number;
                profitMtdUsd: number;
                revenueMtdUsd: number;
                /** @description month-to-date revenue / capital × 100 */
                yieldPct: number;
              }[];
              /** @description live done-for-you machines */
              machinesOwned: number;
              modeCounts: {
                auto: number;
                hybrid: number;
                manual: number;
              };
              netMtdUsd: number;
              perMachineYield: {
                capitalUsd: number;
                dealId: string;
                machineNo: string;
                revenueMtdUsd: number;
                /** @description month-to-date revenue / capital × 100 */
                yieldPct: number;
              }[];
              profitActualMtdUsd: number;
              profitMtdUsd: number;
              revenueMtdUsd: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDfyPortfolioSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              autoApproveScore: number;
              autoInventory: boolean;
              autopilot: boolean;
              capabilityDefaults: {
                /** @description null: no default, the autopilot switch decides */
                contracting: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                install: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                inventory: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                negotiation: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                outreach: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                placement: boolean | null;
              };
              /** @enum {string} */
              installMode: 'team' | 'self';
              inventoryMonthlyCapUsd: number;
              maxAutoApprove: number;
              moneyThresholdUsd: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null: never set (defaults) */
              updatedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putDfyPortfolioSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          autoApproveScore: number;
          autoInventory: boolean;
          autopilot: boolean;
          capabilityDefaults: {
            /** @description null: no default, the autopilot switch decides */
            contracting: boolean | null;
            /** @description null: no default, the autopilot switch decides */
            install: boolean | null;
            /** @description null: no default, the autopilot switch decides */
            inventory: boolean | null;
            /** @description null: no default, the autopilot switch decides */
            negotiation: boolean | null;
            /** @description null: no default, the autopilot switch decides */
            outreach: boolean | null;
            /** @description null: no default, the autopilot switch decides */
            placement: boolean | null;
          };
          /** @enum {string} */
          installMode: 'team' | 'self';
          inventoryMonthlyCapUsd: number;
          maxAutoApprove: number;
          moneyThresholdUsd: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              autoApproveScore: number;
              autoInventory: boolean;
              autopilot: boolean;
              capabilityDefaults: {
                /** @description null: no default, the autopilot switch decides */
                contracting: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                install: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                inventory: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                negotiation: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                outreach: boolean | null;
                /** @description null: no default, the autopilot switch decides */
                placement: boolean | null;
              };
              /** @enum {string} */
              installMode: 'team' | 'self';
              inventoryMonthlyCapUsd: number;
              maxAutoApprove: number;
              moneyThresholdUsd: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null: never set (defaults) */
              updatedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postDfyPreorder: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description ignored: the pre-order is charged the catalog price of its tier */
          amountUsd?: number;
          /** @default null */
          autopilot?: boolean | null;
          /**
           * @description must be true: this action needs an explicit confirmed request
           * @constant
           */
          confirm: true;
          /**
           * @description `reyeah`-family or agent-family cabinet
           * @enum {string}
           */
          hardwareVariant: 'reyeah' | 'agent';
          /** @default null */
          note?: (string & (unknown & unknown)) | null;
          /** @enum {string} */
          tier: 'entry' | 'pro' | 'pro-max';
          /**
           * @description a venue already known (skips the shortlist once pre-ordered); null: the scout shortlists
           * @default null
           */
          venue?: {
            /** @default null */
            address?: (string & (unknown & unknown)) | null;
            lat: number;
            lng: number;
            name: string & (unknown & unknown);
          } | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description per-deal override: true, false, or null (follows the portfolio) */
              autopilot: boolean | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @enum {string} */
              hardwareVariant: 'reyeah' | 'agent';
              id: string;
              install: {
                state: string | null;
                workOrderId: string | null;
              };
              lease: {
                sent: boolean;
                signed: boolean;
              };
              /** @description the fleet pin pre-provisioned at the leased coordinates on payment */
              machineNo: string | null;
              money: {
                machinePaidUsd: number;
                paymentIds: string[];
                preorderPaidUsd: number;
                refundedUsd: number;
              };
              negotiation: {
                approvalReasons: string[];
                envelope: {
                  revenueShareMaxPct: number;
                  revenueShareTargetPct: number;
                  termMaxMonths: number;
                  termMinMonths: number;
                  termTargetMonths: number;
                } | null;
                /** @enum {string} */
                status: 'not_started' | 'started' | 'terms_recorded' | 'approved';
                terms: {
                  outOfMandateAsks: number;
                  revenueSharePct: number;
                  rounds: number;
                  termMonths: number;
                } | null;
              };
              note: string | null;
              onboarding: {
                online: boolean;
                planogram: boolean;
                /** @enum {string} */
                terminal: 'bound' | 'failed' | 'pending';
              } | null;
              openCheckpoints: {
                id: string;
                /** @enum {string} */
                kind:
                  | 'scout_outreach'
                  | 'negotiation_review'
                  | 'lease_send'
                  | 'terms_approval'
                  | 'money'
                  | 'cashless_fail'
                  | 'call_outcome'
                  | 'contact_verify'
                  | 'mode_resume'
                  | 'negotiation_target'
                  | 'reply_review'
                  | 'inventory_cap';
              }[];
              /**
               * @description request; preorder (paid up front); pool (funded by the investment pool, fully managed)
               * @enum {string}
               */
              origin: 'request' | 'preorder' | 'pool';
              /** @description present once outreach has started (docs/dfy.md#outreach-part-2) */
              outreach?: {
                channelOrder: ('email' | 'sms' | 'voice')[];
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastTouchAt: string | null;
                /** @description channels the venue opted out of */
                optedOut: ('email' | 'sms' | 'voice')[];
                replies: number;
                touches: number;
                /** @description the directory venue contacted */
                venueId: string;
              };
              /** @description present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now */
              payment?: {
                /** @description the catalog amount (never a client amount) */
                amountUsd: number;
                /** @description where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment */
                checkoutUrl: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                currency: string;
                /** @description the payment id (the processor intent pays for it; the same request again answers the same payment) */
                id: string;
                /** @enum {string} */
                kind: 'preorder' | 'checkout';
                paymentIntentId: string;
                processor: string;
                /** @constant */
                status: 'awaiting_payment';
              };
              priceUsd: number;
              shipment: {
                carrier: string;
                trackingNumber: string;
              } | null;
              /** @enum {string} */
              stage:
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled';
              stagesVisited: (
                | 'shortlisting'
                | 'pre_ordered'
                | 'outreach'
                | 'lease_chat'
                | 'lease_sent'
                | 'signed'
                | 'ready_to_ship'
                | 'shipped'
                | 'installing'
                | 'live'
                | 'cancelled'
              )[];
              /** @enum {string} */
              tier: 'entry' | 'pro' | 'pro-max';
              timeline: {
                /** @enum {string} */
                actor: 'operator' | 'autopilot' | 'system';
                at: string;
                /** @enum {string} */
                channel: 'api' | 'system' | 'voice' | 'sms' | 'email';
                event: string;
                scriptVersion: string | null;
                seq: number;
                /** @enum {string} */
                stage:
                  | 'shortlisting'
                  | 'pre_ordered'
                  | 'outreach'
                  | 'lease_chat'
                  | 'lease_sent'
                  | 'signed'
                  | 'ready_to_ship'
                  | 'shipped'
                  | 'installing'
                  | 'live'
                  | 'cancelled';
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              updatedAt: string;
              venue: {
                address: string | null;
                lat: number;
                lng: number;
                name: string;
              } | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  getDoohInventory: {
    parameters: {
      query?: {
        /** @description admin credentials only: one operator’s screens */
        operatorEmail?: string & (unknown & unknown);
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                /** @description the screen’s own coordinates, else the machine’s placement; null when neither is known */
                geo: {
                  lat: number;
                  lng: number;
                  /** @enum {string} */
                  source: 'screen' | 'placement';
                } | null;
                impressionsPerPlay: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
                lastSeen: string | null;
                loop: {
                  /** @description slots × slotSeconds */
                  loopSeconds: number;
                  /** @description showings of one slot per open hour: 3600 / loopSeconds */
                  playsPerHour: number;
                  slots: number;
                  slotSeconds: number;
                };
                machineNo: string;
                /** @description the longest spot: one slot */
                maxSpotSeconds: number;
                mediaTypes: ('image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4')[];
                /** @description the shortest spot: 5 s, the shortest slot a screen may have */
                minSpotSeconds: number;
                /** @description the machine’s name */
                name: string;
                /** @description 168 when open around the clock */
                openHoursPerWeek: number;
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                /** @description admin credentials only; null for an unclaimed machine */
                operatorEmail?: string | null;
                /** @enum {string} */
                orientation: 'portrait' | 'landscape' | 'square';
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                /** @description the machine code (machineNo): stable and unique across operators */
                screenId: string;
                /**
                 * @description online: the machine reported within the last 10 minutes
                 * @enum {string}
                 */
                status: 'online' | 'offline';
                /** @description IANA zone of the machine; operating hours are local time there */
                timeZone: string | null;
                venue: {
                  category: {
                    /**
                     * @description OpenRTB 2.6 dooh.venuetypetax
                     * @constant
                     */
                    adcomTaxonomyId: 5;
                    /** @description "Retail / Grocery / Check Out" */
                    fullName: string | null;
                    /** @description OpenOOH enumeration id (OpenRTB 2.6 dooh.venuetype) */
                    id: number;
                    /** @description OpenOOH venuetypelist: the ids from the parent down */
                    idPath: number[];
                    /** @description null only if the id left the taxonomy */
                    name: string | null;
                    /** @constant */
                    taxonomy: 'OpenOOH Venue Taxonomy';
                    /** @constant */
                    version: '1.1';
                  };
                  name: string;
                };
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDoohProofOfPlay: {
    parameters: {
      query?: {
        campaignId?: string;
        machineNo?: string;
        page?: number;
        since?: string;
        size?: number;
        source?: 'direct-sold' | 'programmatic' | 'house';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                campaignId: string | null;
                durationMs: number | null;
                entryId: string;
                id: string;
                leaseId: string | null;
                machineNo: string;
                playedAt: string;
                receivedAt: string;
                /** @enum {string} */
                source: 'direct-sold' | 'programmatic' | 'house';
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getDoohVenueTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /**
               * @description AdCOM "DOOH Venue Taxonomies" value (OpenRTB 2.6 dooh.venuetypetax)
               * @constant
               */
              adcomTaxonomyId: 5;
              records: {
                /** @description whether a screen may be assigned this type (every type except a parent that has children) */
                assignable: boolean;
                /** @description names from the parent down: "Retail / Grocery / Check Out" */
                fullName: string;
                id: number;
                /** @description OpenOOH venuetypelist: the ids from the parent down */
                idPath: number[];
                name: string;
                parentId: number | null;
                /** @description the taxonomy’s string value (deprecated on the wire since 1.1) */
                slug: string;
                /** @enum {string} */
                tier: 'parent' | 'child' | 'grandchild';
              }[];
              /** @constant */
              taxonomy: 'OpenOOH Venue Taxonomy';
              /** @constant */
              version: '1.1';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getFactoryBuilds: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                builtAt: string;
                machineNo: string;
                plant: string;
                qaPassedAt: string | null;
                shippedAt: string | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postFactoryBuilds: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** Format: date-time */
          builtAt?: string;
          machineNo: string;
          plant?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              builtAt: string;
              machineNo: string;
              plant: string;
              qaPassedAt: string | null;
              shippedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  patchFactoryBuildsByMachineNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @constant */
          qaPassed?: true;
          /** @constant */
          shipped?: true;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              builtAt: string;
              machineNo: string;
              plant: string;
              qaPassedAt: string | null;
              shippedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getFinanceEntries: {
    parameters: {
      query?: {
        /** @description first day, inclusive (UTC) */
        from?: string & unknown;
        kind?: 'referral' | 'payroll' | 'expense';
        machineNo?: string;
        /** @description admin credentials only */
        operatorEmail?: string & (unknown & unknown);
        page?: number;
        size?: number;
        /** @description last day, inclusive (UTC) */
        to?: string & unknown;
        venueId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description negative on a reversing entry, decimal currency amount */
                amount: number;
                /** @description negative on a reversing entry, integer cents */
                amountCents: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                id: string;
                /** @enum {string} */
                kind: 'referral' | 'payroll' | 'expense';
                machineNo: string | null;
                memo: string | null;
                occurredOn: string;
                operatorEmail?: string | null;
                /** @description the reversing entry that cancels this one, if any */
                reversedById: string | null;
                /** @description set on a reversing entry: the entry it cancels */
                reversesId: string | null;
                venueId: string | null;
                venueName: string | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postFinanceEntries: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          amount: number;
          /** @enum {string} */
          kind: 'referral' | 'payroll' | 'expense';
          /** @description one of your machines: the entry shows in that machine’s P&L */
          machineNo?: string;
          memo?: string & (unknown & unknown);
          /**
           * Format: date
           * @description the UTC day the cost belongs to: the P&L period it lands in
           */
          occurredOn: string & unknown;
          /** @description one of your venues: the entry shows in that venue’s P&L */
          venueId?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description negative on a reversing entry, decimal currency amount */
              amount: number;
              /** @description negative on a reversing entry, integer cents */
              amountCents: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              /** @enum {string} */
              kind: 'referral' | 'payroll' | 'expense';
              machineNo: string | null;
              memo: string | null;
              occurredOn: string;
              operatorEmail?: string | null;
              /** @description the reversing entry that cancels this one, if any */
              reversedById: string | null;
              /** @description set on a reversing entry: the entry it cancels */
              reversesId: string | null;
              venueId: string | null;
              venueName: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getFinanceEntriesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description negative on a reversing entry, decimal currency amount */
              amount: number;
              /** @description negative on a reversing entry, integer cents */
              amountCents: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              /** @enum {string} */
              kind: 'referral' | 'payroll' | 'expense';
              machineNo: string | null;
              memo: string | null;
              occurredOn: string;
              operatorEmail?: string | null;
              /** @description the reversing entry that cancels this one, if any */
              reversedById: string | null;
              /** @description set on a reversing entry: the entry it cancels */
              reversesId: string | null;
              venueId: string | null;
              venueName: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postFinanceEntriesByIdReverse: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          memo?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description negative on a reversing entry, decimal currency amount */
              amount: number;
              /** @description negative on a reversing entry, integer cents */
              amountCents: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              id: string;
              /** @enum {string} */
              kind: 'referral' | 'payroll' | 'expense';
              machineNo: string | null;
              memo: string | null;
              occurredOn: string;
              operatorEmail?: string | null;
              /** @description the reversing entry that cancels this one, if any */
              reversedById: string | null;
              /** @description set on a reversing entry: the entry it cancels */
              reversesId: string | null;
              venueId: string | null;
              venueName: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postFulfill: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              /** @constant */
              channel: 'walkup';
              machineNo: string;
            }
          | {
              aisleNo: number;
              /** @constant */
              channel: 'api_drop';
              externalRef: string & (unknown & unknown);
              machineNo: string;
              reason: string & (unknown & unknown);
            };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data:
              | {
                  /** @constant */
                  channel: 'walkup';
                  detail: string;
                  /** @constant */
                  dispense: false;
                  machineNo: string;
                }
              | {
                  ackedAt: string | null;
                  aisleNo: number;
                  /** @constant */
                  channel: 'api_drop';
                  commandId: string;
                  createdAt: string;
                  detail: string | null;
                  /** @constant */
                  dispense: true;
                  duplicate: boolean;
                  expiredAt: string | null;
                  externalRef: string | null;
                  machineNo: string;
                  orderNumber: string | null;
                  outcome: string | null;
                  reason: string;
                  /** @enum {string} */
                  status: 'pending' | 'acknowledged' | 'failed' | 'expired';
                };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getInventory: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisles: {
                aisleNo: number;
                alertThreshold: number;
                currentStock: number;
                faulted: boolean;
                /** @description the product picture: an https URL or a path on this service; null: none */
                imageUrl: string | null;
                /** @description currentStock <= alertThreshold */
                low: boolean;
                maxStock: number;
                productName: string | null;
                /** @description decimal currency amount */
                sellingPrice: number;
                sku: string | null;
              }[];
              machineNo: string;
              name: string;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getInventoryLots: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        sku?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                id: string;
                purchaseOrderRef: string | null;
                qtyReceived: number;
                qtyRemaining: number;
                receivedAt: string;
                sku: string;
                /** @description decimal currency amount */
                unitCost: number;
                unitCostCents: number;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getInventoryMachinesByMachineNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisles: {
                aisleNo: number;
                alertThreshold: number;
                currentStock: number;
                faulted: boolean;
                /** @description the product picture: an https URL or a path on this service; null: none */
                imageUrl: string | null;
                /** @description currentStock <= alertThreshold */
                low: boolean;
                maxStock: number;
                productName: string | null;
                /** @description decimal currency amount */
                sellingPrice: number;
                sku: string | null;
              }[];
              machineNo: string;
              name: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putInventoryMachinesByMachineNoAislesByAisleNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        aisleNo: number;
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          alertThreshold?: number;
          currentStock?: number;
          faulted?: boolean;
          /** @description the product picture shown by the kiosk storefront; null removes it */
          imageUrl?: (string & (unknown & unknown)) | null;
          maxStock?: number;
          sellingPrice?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              alertThreshold: number;
              currentStock: number;
              faulted: boolean;
              /** @description the product picture: an https URL or a path on this service; null: none */
              imageUrl: string | null;
              /** @description currentStock <= alertThreshold */
              low: boolean;
              machineNo: string;
              maxStock: number;
              productName: string | null;
              /** @description decimal currency amount */
              sellingPrice: number;
              sku: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postInventoryMachinesByMachineNoRestock: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisles?: number[];
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisles: {
                aisleNo: number;
                alertThreshold: number;
                currentStock: number;
                faulted: boolean;
                /** @description the product picture: an https URL or a path on this service; null: none */
                imageUrl: string | null;
                /** @description currentStock <= alertThreshold */
                low: boolean;
                maxStock: number;
                productName: string | null;
                /** @description decimal currency amount */
                sellingPrice: number;
                sku: string | null;
              }[];
              machineNo: string;
              name: string;
              restocked: number[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postKioskCheckoutsWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          data: {
            /** @description Integer cents: must equal the purchase quote */
            amountCents: number;
            currency: string;
            intentId: string;
            purchaseId: string;
          };
          /** @description The event id: applied at most once */
          id: string;
          /** @description payment_intent.succeeded (other types are recorded and change nothing) */
          type: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data:
              | {
                  checkoutId: string;
                  commandId: string | null;
                  duplicate: boolean;
                  eventId: string;
                  orderNumber: string | null;
                  /** @description owed: the payment came after the checkout ended and is owed back */
                  refund: ('owed' | 'issued') | null;
                  /** @description the checkout’s status after the event (null: no such checkout) */
                  status: ('awaiting_payment' | 'paid' | 'vending' | 'vended' | 'failed' | 'expired' | 'cancelled') | null;
                  type: string;
                }
              | {
                  eventId: string;
                  /** @description that place's own answer, as its webhook would give it (null: none applied it) */
                  result: {
                    [key: string]: unknown;
                  } | null;
                  /** @description the webhook path of the place that applied the event (its metadata.webhookPath); null: no place of this service has that path — acknowledged, recorded in the audit log, nothing changed */
                  routedTo: string | null;
                  type: string;
                };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachines: {
    parameters: {
      query?: {
        operatorEmail?: string & (unknown & unknown);
        page?: number;
        size?: number;
        status?: 'online' | 'offline';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                address: string | null;
                expireDate: string | null;
                geo: {
                  /** @description the location label */
                  address: string;
                  geocodeDetail?: string;
                  /** @description true only for provider_error and skipped */
                  geocodeRetryable?: boolean;
                  /**
                   * @description absent when the machine was never geocoded
                   * @enum {string}
                   */
                  geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                  lat: number | null;
                  lng: number | null;
                  placeId: string | null;
                };
                id: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
                lastSeen: string | null;
                lat: string | null;
                lng: string | null;
                location: string;
                machineNo: string;
                name: string;
                notes: string | null;
                /** @description admin credentials only; null for an unclaimed machine */
                operatorEmail?: string | null;
                paymentTerminal: {
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                  boundAt: string;
                  merchantAccount: string;
                  provider: string;
                  terminalId: string;
                } | null;
                placeId: string | null;
                rentState: number;
                /** @description percent, e.g. 8.875 */
                salesTaxRate: number | null;
                /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
                screen: {
                  address: {
                    /** @description trimmed, inner spaces collapsed */
                    city: string;
                    /** @description ISO 3166-1 alpha-2 */
                    country: string;
                    line1: string;
                    line2: string | null;
                    /** @description as typed, trimmed and uppercased */
                    postalCode: string | null;
                    region: string | null;
                  };
                  geo: {
                    lat: number;
                    lng: number;
                  } | null;
                  impressionsPerPlay: number;
                  loop: {
                    slots: number;
                    slotSeconds: number;
                  };
                  /** @description every day listed, [] = closed; null = open around the clock */
                  operatingHours: {
                    fri: {
                      close: string;
                      open: string;
                    }[];
                    mon: {
                      close: string;
                      open: string;
                    }[];
                    sat: {
                      close: string;
                      open: string;
                    }[];
                    sun: {
                      close: string;
                      open: string;
                    }[];
                    thu: {
                      close: string;
                      open: string;
                    }[];
                    tue: {
                      close: string;
                      open: string;
                    }[];
                    wed: {
                      close: string;
                      open: string;
                    }[];
                  } | null;
                  panel: {
                    diagonalInches: number;
                  };
                  resolution: {
                    height: number;
                    width: number;
                  };
                  venueCategoryId: number;
                  venueName: string;
                } | null;
                software: {
                  agentVersion: string | null;
                  apkVersion: string | null;
                  platform: string | null;
                  vmcVersion: string | null;
                };
                /** @enum {string} */
                status: 'online' | 'offline';
                timeZone: string | null;
                venueId: string | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address?: string & (unknown & unknown);
          lat?: string;
          lng?: string;
          location?: string;
          name?: string & (unknown & unknown);
          notes?: string | null;
          placeId?: string & (unknown & unknown);
          salesTaxRate?: number | null;
          timeZone?: string | null;
          venueId?: (string & (unknown & unknown)) | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              /** @description present only when this request changed salesTaxRate */
              taxRestatement?: {
                /** @description closed periods left unchanged (also listed at GET /api/v1/tax/restatements-blocked) */
                blockedPeriods: {
                  orders: number;
                  period: string;
                  /** @enum {string} */
                  reason: 'remitted' | 'paid_out';
                }[];
                /** @description unstamped orders in closed periods stamped at the rate they were reported at, so the new rate cannot reach them */
                pinnedOrders: number;
                /** @description orders in open periods whose rate changed: their netCents and tax follow, chargedCents never */
                restatedOrders: number;
              };
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  patchMachinesByMachineNo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address?: string & (unknown & unknown);
          lat?: string;
          lng?: string;
          location?: string;
          name?: string & (unknown & unknown);
          notes?: string | null;
          placeId?: string & (unknown & unknown);
          salesTaxRate?: number | null;
          timeZone?: string | null;
          venueId?: (string & (unknown & unknown)) | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              /** @description present only when this request changed salesTaxRate */
              taxRestatement?: {
                /** @description closed periods left unchanged (also listed at GET /api/v1/tax/restatements-blocked) */
                blockedPeriods: {
                  orders: number;
                  period: string;
                  /** @enum {string} */
                  reason: 'remitted' | 'paid_out';
                }[];
                /** @description unstamped orders in closed periods stamped at the rate they were reported at, so the new rate cannot reach them */
                pinnedOrders: number;
                /** @description orders in open periods whose rate changed: their netCents and tax follow, chargedCents never */
                restatedOrders: number;
              };
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoAdvertiseQr: {
    parameters: {
      query?: {
        size?: number;
      };
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoAgent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              agentVersion: string | null;
              arch: string | null;
              blocked: {
                count: number;
                firstReportedAt: string;
                minFrom: string;
                seconds: number;
                version: string;
              } | null;
              deferring: {
                count: number;
                firstReportedAt: string;
                reason: string;
                reportedAt: string;
                seconds: number;
                version: string;
              } | null;
              inCohort: boolean;
              lastSeen: string | null;
              machineNo: string;
              offer: {
                allowDowngrade: boolean;
                /** @enum {string} */
                arch?: 'x64' | 'arm64';
                artifacts?: {
                  /** @enum {string} */
                  arch: 'x64' | 'arm64';
                  sha256: string;
                  size: number;
                  /**
                   * Format: uri
                   * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                   */
                  url: string;
                }[];
                isFinalStep: boolean;
                migration: boolean;
                minFrom: string | null;
                sequence: number;
                sha256: string;
                signature: string;
                /** @constant */
                signatureAlg: 'ed25519';
                size: number;
                target: string;
                /**
                 * Format: uri
                 * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                 */
                url: string;
                version: string;
              } | null;
              offerReason: string;
              pin: {
                pinnedAt: string;
                pinnedBy: string | null;
                reason: string;
                version: string;
              } | null;
              target: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoAgentPin: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          reason: string & (unknown & unknown);
          version: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              agentVersion: string | null;
              arch: string | null;
              blocked: {
                count: number;
                firstReportedAt: string;
                minFrom: string;
                seconds: number;
                version: string;
              } | null;
              deferring: {
                count: number;
                firstReportedAt: string;
                reason: string;
                reportedAt: string;
                seconds: number;
                version: string;
              } | null;
              inCohort: boolean;
              lastSeen: string | null;
              machineNo: string;
              offer: {
                allowDowngrade: boolean;
                /** @enum {string} */
                arch?: 'x64' | 'arm64';
                artifacts?: {
                  /** @enum {string} */
                  arch: 'x64' | 'arm64';
                  sha256: string;
                  size: number;
                  /**
                   * Format: uri
                   * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                   */
                  url: string;
                }[];
                isFinalStep: boolean;
                migration: boolean;
                minFrom: string | null;
                sequence: number;
                sha256: string;
                signature: string;
                /** @constant */
                signatureAlg: 'ed25519';
                size: number;
                target: string;
                /**
                 * Format: uri
                 * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                 */
                url: string;
                version: string;
              } | null;
              offerReason: string;
              pin: {
                pinnedAt: string;
                pinnedBy: string | null;
                reason: string;
                version: string;
              } | null;
              target: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['MachineNotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteMachinesByMachineNoAgentPin: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              machineNo: string;
              pin: null;
              removed: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoCabinetSettings: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              config: {
                adminPin: string;
                /** @enum {string} */
                adminPinSource: 'operator' | 'derived';
                columnsPerRow: number;
                /** @enum {string} */
                dispatchMode: 'both' | 'kiosk_led' | 'remote_led';
                features: {
                  ambientAudio: boolean;
                  appAnalytics: boolean;
                  arcadePrintables: boolean;
                  autoRescue: boolean;
                  cameraLive: boolean;
                  cardTapForceTile: boolean;
                  cardTapStorefront: boolean;
                  deviceLogs: boolean;
                  dropSound: boolean;
                  factoryMode: boolean;
                  figurines: boolean;
                  htmlStorefront: boolean;
                  merchOnDemand: boolean;
                  photobooth: boolean;
                  remoteScreen: boolean;
                  testMode: boolean;
                  visionWatch: boolean;
                  voiceShopper: boolean;
                  walkupAlerts: boolean;
                  walkupSensor: boolean;
                };
                heartbeatInterval: number;
                kioskUiUrl: string;
                machineCode: string;
                /** @enum {string} */
                module: 'SH_YAxis' | 'SH';
                pollInterval: number;
                rows: number;
                serviceCode?: string | null;
              };
              machineNo: string;
              settings: {
                adminPinSet: boolean;
                columnsPerRow: number | null;
                dispatchMode: string | null;
                features: {
                  [key: string]: boolean;
                };
                heartbeatInterval: number | null;
                kioskUiUrl: string | null;
                module: string | null;
                pollInterval: number | null;
                rows: number | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNoCabinetSettings: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          adminPin?: string | null;
          columnsPerRow?: number | null;
          dispatchMode?: ('both' | 'kiosk_led' | 'remote_led') | null;
          features?: {
            ambientAudio?: boolean | null;
            appAnalytics?: boolean | null;
            arcadePrintables?: boolean | null;
            autoRescue?: boolean | null;
            cameraLive?: boolean | null;
            cardTapForceTile?: boolean | null;
            cardTapStorefront?: boolean | null;
            deviceLogs?: boolean | null;
            dropSound?: boolean | null;
            factoryMode?: boolean | null;
            figurines?: boolean | null;
            htmlStorefront?: boolean | null;
            merchOnDemand?: boolean | null;
            photobooth?: boolean | null;
            remoteScreen?: boolean | null;
            testMode?: boolean | null;
            visionWatch?: boolean | null;
            voiceShopper?: boolean | null;
            walkupAlerts?: boolean | null;
            walkupSensor?: boolean | null;
          };
          heartbeatInterval?: number | null;
          kioskUiUrl?: (string & (unknown & unknown)) | null;
          module?: ('SH_YAxis' | 'SH') | null;
          pollInterval?: number | null;
          rows?: number | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              config: {
                adminPin: string;
                /** @enum {string} */
                adminPinSource: 'operator' | 'derived';
                columnsPerRow: number;
                /** @enum {string} */
                dispatchMode: 'both' | 'kiosk_led' | 'remote_led';
                features: {
                  ambientAudio: boolean;
                  appAnalytics: boolean;
                  arcadePrintables: boolean;
                  autoRescue: boolean;
                  cameraLive: boolean;
                  cardTapForceTile: boolean;
                  cardTapStorefront: boolean;
                  deviceLogs: boolean;
                  dropSound: boolean;
                  factoryMode: boolean;
                  figurines: boolean;
                  htmlStorefront: boolean;
                  merchOnDemand: boolean;
                  photobooth: boolean;
                  remoteScreen: boolean;
                  testMode: boolean;
                  visionWatch: boolean;
                  voiceShopper: boolean;
                  walkupAlerts: boolean;
                  walkupSensor: boolean;
                };
                heartbeatInterval: number;
                kioskUiUrl: string;
                machineCode: string;
                /** @enum {string} */
                module: 'SH_YAxis' | 'SH';
                pollInterval: number;
                rows: number;
                serviceCode?: string | null;
              };
              machineNo: string;
              settings: {
                adminPinSet: boolean;
                columnsPerRow: number | null;
                dispatchMode: string | null;
                features: {
                  [key: string]: boolean;
                };
                heartbeatInterval: number | null;
                kioskUiUrl: string | null;
                module: string | null;
                pollInterval: number | null;
                rows: number | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoCommands: {
    parameters: {
      query?: {
        externalRef?: string & (unknown & unknown);
        page?: number;
        size?: number;
        status?: 'pending' | 'acknowledged' | 'failed' | 'expired';
      };
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                ackedAt: string | null;
                aisleNo: number;
                /** @constant */
                channel: 'api_drop';
                commandId: string;
                createdAt: string;
                detail: string | null;
                expiredAt: string | null;
                externalRef: string | null;
                machineNo: string;
                orderNumber: string | null;
                outcome: string | null;
                reason: string;
                /** @enum {string} */
                status: 'pending' | 'acknowledged' | 'failed' | 'expired';
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoCommandsByCommandId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        commandId: string;
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              ackedAt: string | null;
              aisleNo: number;
              /** @constant */
              channel: 'api_drop';
              commandId: string;
              createdAt: string;
              detail: string | null;
              expiredAt: string | null;
              externalRef: string | null;
              machineNo: string;
              orderNumber: string | null;
              outcome: string | null;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'acknowledged' | 'failed' | 'expired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoCommandsByCommandIdAck: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        commandId: string;
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @default  */
          detail?: string;
          outcome: string & (unknown & unknown);
          success: boolean;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              ackedAt: string | null;
              aisleNo: number;
              alreadyAcknowledged: boolean;
              /** @constant */
              channel: 'api_drop';
              commandId: string;
              createdAt: string;
              detail: string | null;
              expiredAt: string | null;
              externalRef: string | null;
              machineNo: string;
              order: {
                channel: string;
                chargedCents: number;
                orderNumber: string;
                paidPrice: number;
                payMethod: string;
                payStatus: string;
              } | null;
              orderNumber: string | null;
              outcome: string | null;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'acknowledged' | 'failed' | 'expired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoCommandsDispense: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisleNo: number;
          externalRef?: (string & (unknown & unknown)) | null;
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              ackedAt: string | null;
              aisleNo: number;
              /** @constant */
              channel: 'api_drop';
              commandId: string;
              createdAt: string;
              detail: string | null;
              duplicate: boolean;
              expiredAt: string | null;
              externalRef: string | null;
              machineNo: string;
              orderNumber: string | null;
              outcome: string | null;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'acknowledged' | 'failed' | 'expired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoCommandsPending: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              ackedAt: string | null;
              aisleNo: number;
              /** @constant */
              channel: 'api_drop';
              commandId: string;
              createdAt: string;
              detail: string | null;
              expiredAt: string | null;
              externalRef: string | null;
              machineNo: string;
              orderNumber: string | null;
              outcome: string | null;
              reason: string;
              /** @enum {string} */
              status: 'pending' | 'acknowledged' | 'failed' | 'expired';
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoDeviceCredentialArm: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          deviceId?: string;
          reason: string & (unknown & unknown);
          /** @default 30 */
          ttlMinutes?: number;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              enrolmentArmed: {
                armedAt: string;
                armedBy: {
                  keyId: string | null;
                  /** @enum {string} */
                  kind: 'owner' | 'admin' | 'factory';
                  operatorEmail: string | null;
                };
                deviceId: string | null;
                expiresAt: string;
                reason: string;
              };
              machineNo: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoDeviceCredentialDisarm: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              disarmed: boolean;
              machineNo: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNoDeviceCredentialMode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          mode: ('open' | 'armed' | 'closed') | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @enum {string} */
              effectiveMode: 'open' | 'armed' | 'closed';
              machineNo: string;
              mode: ('open' | 'armed' | 'closed') | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoDeviceCredentialRevoke: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          by: string & (unknown & unknown);
          reason: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              by: string;
              generationsRevoked: number;
              machineNo: string;
              reason: string;
              revokedAt: string;
              /** @constant */
              state: 'revoked';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoDeviceCredentialRotate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              generation: number;
              machineNo: string;
              rotationDue: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoDex: {
    parameters: {
      query?: {
        /** @description first day of the period, inclusive (UTC); default: to, or today */
        from?: string & unknown;
        /** @description last day of the period, inclusive (UTC); default: from, or today */
        to?: string & unknown;
      };
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoDex: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description the DEX file read from the board, as text */
          dex: string;
          /**
           * Format: date
           * @description first day of the board's counting period (its last reset), inclusive (UTC)
           */
          from?: string & unknown;
          /**
           * Format: date
           * @description last day of that period, inclusive (UTC); default: today
           */
          to?: string & unknown;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description the file's ID101 (machine serial) or, without one, its DXS01 sender */
              boardId: string;
              /**
               * @description since_reset (PA203) with from/to, else since_init (PA201) against every sale
               * @enum {string}
               */
              counters: 'since_reset' | 'since_init';
              /** @description the file's failed-vend count (EA2 OFV) for the same counters, when present */
              failedVends: number | null;
              from: string | null;
              machineNo: string;
              selections: {
                /** @description vends the board counted */
                board: number;
                /** @description units the cloud recorded as vended (paid and free) */
                cloud: number;
                /** @description board − cloud */
                difference: number;
                selection: number;
                /**
                 * @description over: the board vended more than the cloud recorded (unrecorded sales); short: fewer
                 * @enum {string}
                 */
                status: 'match' | 'over' | 'short';
              }[];
              to: string;
              total: {
                /** @description vends the board counted */
                board: number;
                /** @description units the cloud recorded as vended (paid and free) */
                cloud: number;
                /** @description board − cloud */
                difference: number;
                /**
                 * @description over: the board vended more than the cloud recorded (unrecorded sales); short: fewer
                 * @enum {string}
                 */
                status: 'match' | 'over' | 'short';
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoGeocodeRetry: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesByMachineNoIdentityReset: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          arm?: {
            deviceId?: string;
            /** @default 30 */
            ttlMinutes?: number;
          };
          reason: string & (unknown & unknown);
          signer: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              enrolmentArmed: {
                armedAt: string;
                armedBy: {
                  keyId: string | null;
                  /** @enum {string} */
                  kind: 'owner' | 'admin' | 'factory';
                  operatorEmail: string | null;
                };
                deviceId: string | null;
                expiresAt: string;
                reason: string;
              } | null;
              /** @constant */
              enrolmentBinding: 'unbound';
              machineNo: string;
              reason: string;
              resetAt: string;
              signer: string;
              /** @constant */
              state: 'fleet-secret';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      404: components['responses']['MachineNotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoOperatorQr: {
    parameters: {
      query?: {
        size?: number;
      };
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoOperatorView: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisles: {
                capacityUnits: number;
                faulted: number[];
                fillPercent: number;
                low: number[];
                out: number[];
                stockUnits: number;
                total: number;
              };
              machine: {
                effectivelyDown: boolean;
                lastSeen: string | null;
                location: string;
                machineNo: string;
                name: string;
                /** @enum {string} */
                status: 'online' | 'offline';
                timeZone: string | null;
              };
              money: {
                currency: string | null;
                freeProduct: {
                  /** @description FIFO cost of the units given away, decimal */
                  cost30Days: number;
                  costCents30Days: number;
                  drops30Days: number;
                };
                game: {
                  budgetLeft: number | null;
                  entries30Days: number;
                  mechanicsEnabled: ('spinToWin' | 'scratchCard' | 'loyaltyStamp')[];
                  monthlyBudget: number | null;
                  period: string;
                  plays30Days: number;
                  prizeCost30Days: number;
                  prizeCostCents30Days: number;
                  scans30Days: number;
                  spentThisPeriod: number;
                  wins30Days: number;
                };
                sales30Days: number;
                screenAds: {
                  activeCampaigns: number;
                  estRevenue30Days: number;
                };
              };
              sales: {
                last7Days: {
                  gross: number;
                  orders: number;
                  refunded: number;
                };
                last30Days: {
                  gross: number;
                  orders: number;
                  refunded: number;
                };
                today: {
                  gross: number;
                  orders: number;
                  refunded: number;
                };
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoPrizeMechanics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              budgetLeft: number | null;
              budgetLeftCents: number | null;
              machineNo: string;
              mechanics: {
                loyaltyStamp: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
                scratchCard: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
                spinToWin: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
              };
              monthlyBudget: number | null;
              monthlyBudgetCents: number | null;
              period: string;
              spent: number;
              spentCents: number;
              updatedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNoPrizeMechanics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          mechanics: {
            loyaltyStamp?: {
              enabled: boolean;
              maxPrizeValue?: number | null;
              maxWinsPerDay?: number | null;
            };
            scratchCard?: {
              enabled: boolean;
              maxPrizeValue?: number | null;
              maxWinsPerDay?: number | null;
            };
            spinToWin?: {
              enabled: boolean;
              maxPrizeValue?: number | null;
              maxWinsPerDay?: number | null;
            };
          };
          monthlyBudget?: number | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              budgetLeft: number | null;
              budgetLeftCents: number | null;
              machineNo: string;
              mechanics: {
                loyaltyStamp: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
                scratchCard: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
                spinToWin: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxPrizeValueCents: number | null;
                  maxWinsPerDay: number | null;
                  winsToday: number;
                };
              };
              monthlyBudget: number | null;
              monthlyBudgetCents: number | null;
              period: string;
              spent: number;
              spentCents: number;
              updatedAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNoScreen: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          address: {
            city: string & (unknown & unknown);
            /**
             * @description ISO 3166-1 alpha-2 (any case; stored uppercased)
             * @enum {string}
             */
            country:
              | 'AD'
              | 'AE'
              | 'AF'
              | 'AG'
              | 'AI'
              | 'AL'
              | 'AM'
              | 'AO'
              | 'AQ'
              | 'AR'
              | 'AS'
              | 'AT'
              | 'AU'
              | 'AW'
              | 'AX'
              | 'AZ'
              | 'BA'
              | 'BB'
              | 'BD'
              | 'BE'
              | 'BF'
              | 'BG'
              | 'BH'
              | 'BI'
              | 'BJ'
              | 'BL'
              | 'BM'
              | 'BN'
              | 'BO'
              | 'BQ'
              | 'BR'
              | 'BS'
              | 'BT'
              | 'BV'
              | 'BW'
              | 'BY'
              | 'BZ'
              | 'CA'
              | 'CC'
              | 'CD'
              | 'CF'
              | 'CG'
              | 'CH'
              | 'CI'
              | 'CK'
              | 'CL'
              | 'CM'
              | 'CN'
              | 'CO'
              | 'CR'
              | 'CU'
              | 'CV'
              | 'CW'
              | 'CX'
              | 'CY'
              | 'CZ'
              | 'DE'
              | 'DJ'
              | 'DK'
              | 'DM'
              | 'DO'
              | 'DZ'
              | 'EC'
              | 'EE'
              | 'EG'
              | 'EH'
              | 'ER'
              | 'ES'
              | 'ET'
              | 'FI'
              | 'FJ'
              | 'FK'
              | 'FM'
              | 'FO'
              | 'FR'
              | 'GA'
              | 'GB'
              | 'GD'
              | 'GE'
              | 'GF'
              | 'GG'
              | 'GH'
              | 'GI'
              | 'GL'
              | 'GM'
              | 'GN'
              | 'GP'
              | 'GQ'
              | 'GR'
              | 'GS'
              | 'GT'
              | 'GU'
              | 'GW'
              | 'GY'
              | 'HK'
              | 'HM'
              | 'HN'
              | 'HR'
              | 'HT'
              | 'HU'
              | 'ID'
              | 'IE'
              | 'IL'
              | 'IM'
              | 'IN'
              | 'IO'
              | 'IQ'
              | 'IR'
              | 'IS'
              | 'IT'
              | 'JE'
              | 'JM'
              | 'JO'
              | 'JP'
              | 'KE'
              | 'KG'
              | 'KH'
              | 'KI'
              | 'KM'
              | 'KN'
              | 'KP'
              | 'KR'
              | 'KW'
              | 'KY'
              | 'KZ'
              | 'LA'
              | 'LB'
              | 'LC'
              | 'LI'
              | 'LK'
              | 'LR'
              | 'LS'
              | 'LT'
              | 'LU'
              | 'LV'
              | 'LY'
              | 'MA'
              | 'MC'
              | 'MD'
              | 'ME'
              | 'MF'
              | 'MG'
              | 'MH'
              | 'MK'
              | 'ML'
              | 'MM'
              | 'MN'
              | 'MO'
              | 'MP'
              | 'MQ'
              | 'MR'
              | 'MS'
              | 'MT'
              | 'MU'
              | 'MV'
              | 'MW'
              | 'MX'
              | 'MY'
              | 'MZ'
              | 'NA'
              | 'NC'
              | 'NE'
              | 'NF'
              | 'NG'
              | 'NI'
              | 'NL'
              | 'NO'
              | 'NP'
              | 'NR'
              | 'NU'
              | 'NZ'
              | 'OM'
              | 'PA'
              | 'PE'
              | 'PF'
              | 'PG'
              | 'PH'
              | 'PK'
              | 'PL'
              | 'PM'
              | 'PN'
              | 'PR'
              | 'PS'
              | 'PT'
              | 'PW'
              | 'PY'
              | 'QA'
              | 'RE'
              | 'RO'
              | 'RS'
              | 'RU'
              | 'RW'
              | 'SA'
              | 'SB'
              | 'SC'
              | 'SD'
              | 'SE'
              | 'SG'
              | 'SH'
              | 'SI'
              | 'SJ'
              | 'SK'
              | 'SL'
              | 'SM'
              | 'SN'
              | 'SO'
              | 'SR'
              | 'SS'
              | 'ST'
              | 'SV'
              | 'SX'
              | 'SY'
              | 'SZ'
              | 'TC'
              | 'TD'
              | 'TF'
              | 'TG'
              | 'TH'
              | 'TJ'
              | 'TK'
              | 'TL'
              | 'TM'
              | 'TN'
              | 'TO'
              | 'TR'
              | 'TT'
              | 'TV'
              | 'TW'
              | 'TZ'
              | 'UA'
              | 'UG'
              | 'UM'
              | 'US'
              | 'UY'
              | 'UZ'
              | 'VA'
              | 'VC'
              | 'VE'
              | 'VG'
              | 'VI'
              | 'VN'
              | 'VU'
              | 'WF'
              | 'WS'
              | 'YE'
              | 'YT'
              | 'ZA'
              | 'ZM'
              | 'ZW';
            line1: string & (unknown & unknown);
            line2?: string | null;
            /** @description letters, digits, spaces and hyphens; stored trimmed and uppercased */
            postalCode?: string | null;
            region?: string | null;
          };
          /** @description the screen’s own coordinates; null: the machine’s placement coordinates stand in */
          geo?: {
            lat: number;
            lng: number;
          } | null;
          /**
           * @description estimated viewers per showing; default 1
           * @default 1
           */
          impressionsPerPlay?: number;
          /**
           * @description slots × slotSeconds; default 8 × 15 s
           * @default {
           *       "slots": 8,
           *       "slotSeconds": 15
           *     }
           */
          loop?: {
            /** @default 8 */
            slots?: number;
            /** @default 15 */
            slotSeconds?: number;
          };
          /** @description local wall-clock hours in the machine’s timeZone, per day (mon…sun); a day left out is closed; close before open runs past midnight; null: open around the clock */
          operatingHours?: {
            fri?: {
              close: string;
              open: string;
            }[];
            mon?: {
              close: string;
              open: string;
            }[];
            sat?: {
              close: string;
              open: string;
            }[];
            sun?: {
              close: string;
              open: string;
            }[];
            thu?: {
              close: string;
              open: string;
            }[];
            tue?: {
              close: string;
              open: string;
            }[];
            wed?: {
              close: string;
              open: string;
            }[];
          } | null;
          panel: {
            diagonalInches: number;
          };
          resolution: {
            height: number;
            width: number;
          };
          /**
           * @description OpenOOH 1.1 venue type id (a child or grandchild type)
           * @enum {integer}
           */
          venueCategoryId:
            | 101
            | 10101
            | 10102
            | 10103
            | 10104
            | 10105
            | 10106
            | 10107
            | 102
            | 10201
            | 10202
            | 10203
            | 103
            | 104
            | 105
            | 10501
            | 10502
            | 106
            | 10601
            | 10602
            | 107
            | 201
            | 20101
            | 20102
            | 202
            | 203
            | 20301
            | 20302
            | 20303
            | 204
            | 205
            | 20501
            | 20502
            | 20503
            | 206
            | 207
            | 208
            | 301
            | 30101
            | 30102
            | 30103
            | 302
            | 303
            | 401
            | 40101
            | 40102
            | 402
            | 40201
            | 40202
            | 40203
            | 403
            | 501
            | 502
            | 601
            | 602
            | 60201
            | 60202
            | 60203
            | 701
            | 70101
            | 70102
            | 801
            | 80101
            | 80102
            | 80103
            | 802
            | 80201
            | 80202
            | 803
            | 80301
            | 80302
            | 804
            | 805
            | 806
            | 807
            | 80701
            | 80702
            | 80703
            | 808
            | 809
            | 810
            | 901
            | 902
            | 903
            | 1001
            | 1101
            | 110101
            | 110102;
          venueName: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteMachinesByMachineNoScreen: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesByMachineNoServiceCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              attempts: {
                /** @enum {string} */
                action: 'motor-test' | 'enrolment-reset' | 'log-export' | 'network' | 'unlock' | 'screen';
                at: string;
                /** @enum {string} */
                result: 'ok' | 'wrong' | 'locked' | 'no-code';
                /** @enum {string} */
                source: 'cli' | 'control';
              }[];
              lock: {
                failures: number;
                lockedUntil: string | null;
                reportedAt: string;
              } | null;
              machineNo: string;
              set: boolean;
              setAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesByMachineNoServiceCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              attempts: {
                /** @enum {string} */
                action: 'motor-test' | 'enrolment-reset' | 'log-export' | 'network' | 'unlock' | 'screen';
                at: string;
                /** @enum {string} */
                result: 'ok' | 'wrong' | 'locked' | 'no-code';
                /** @enum {string} */
                source: 'cli' | 'control';
              }[];
              lock: {
                failures: number;
                lockedUntil: string | null;
                reportedAt: string;
              } | null;
              machineNo: string;
              set: boolean;
              setAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteMachinesByMachineNoServiceCode: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              attempts: {
                /** @enum {string} */
                action: 'motor-test' | 'enrolment-reset' | 'log-export' | 'network' | 'unlock' | 'screen';
                at: string;
                /** @enum {string} */
                result: 'ok' | 'wrong' | 'locked' | 'no-code';
                /** @enum {string} */
                source: 'cli' | 'control';
              }[];
              lock: {
                failures: number;
                lockedUntil: string | null;
                reportedAt: string;
              } | null;
              machineNo: string;
              set: boolean;
              setAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesDeviceCredentialsFleet: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        state?: 'enrolled' | 'fleet-secret' | 'revoked';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              armed: number;
              enrolmentWindow: {
                armDefaultMinutes: number;
                armMaxMinutes: number;
                budgetAttempts: number;
                budgetWindowSeconds: number;
                /** @enum {string} */
                mode: 'open' | 'armed' | 'closed';
              };
              machines: {
                copySuspicions: number;
                deviceId: string | null;
                enrolmentArmed: {
                  armedAt: string;
                  armedBy: {
                    keyId: string | null;
                    /** @enum {string} */
                    kind: 'owner' | 'admin' | 'factory';
                    operatorEmail: string | null;
                  };
                  deviceId: string | null;
                  expiresAt: string;
                  reason: string;
                } | null;
                /** @enum {string} */
                enrolmentBinding: 'device-id' | 'self-asserted' | 'unbound';
                generation: number | null;
                keyId: string | null;
                machineNo: string;
                revoked: {
                  at: string;
                  by: string | null;
                  reason: string | null;
                } | null;
                rotationDue: boolean;
                /** @enum {string} */
                state: 'enrolled' | 'fleet-secret' | 'revoked';
              }[];
              onFleetSecret: number;
              page: number;
              reachableOnFleetSecret: number;
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  putMachinesDeviceCredentialsMode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @enum {string} */
          mode: 'open' | 'armed' | 'closed';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @enum {string} */
              mode: 'open' | 'armed' | 'closed';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesDeviceCredentialsSuspicions: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                count: number;
                firstAt: string;
                keyId: string | null;
                lastAt: string;
                leg: string;
                machineNo: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesIdentityConflicts: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                at: string;
                binding: string;
                boundDeviceId: string | null;
                leg: string;
                machineNo: string;
                presentedDeviceId: string;
                resolvedAt: string | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMachinesRegister: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          lat?: string;
          lng?: string;
          location?: string;
          machineNo: string;
          name?: string & (unknown & unknown);
          operatorEmail?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              address: string | null;
              expireDate: string | null;
              geo: {
                /** @description the location label */
                address: string;
                geocodeDetail?: string;
                /** @description true only for provider_error and skipped */
                geocodeRetryable?: boolean;
                /**
                 * @description absent when the machine was never geocoded
                 * @enum {string}
                 */
                geocodeStatus?: 'resolved' | 'not_found' | 'provider_error' | 'skipped';
                lat: number | null;
                lng: number | null;
                placeId: string | null;
              };
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen */
              lastSeen: string | null;
              lat: string | null;
              lng: string | null;
              location: string;
              machineNo: string;
              name: string;
              notes: string | null;
              /** @description admin credentials only; null for an unclaimed machine */
              operatorEmail?: string | null;
              paymentTerminal: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                boundAt: string;
                merchantAccount: string;
                provider: string;
                terminalId: string;
              } | null;
              placeId: string | null;
              rentState: number;
              /** @description percent, e.g. 8.875 */
              salesTaxRate: number | null;
              /** @description the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set */
              screen: {
                address: {
                  /** @description trimmed, inner spaces collapsed */
                  city: string;
                  /** @description ISO 3166-1 alpha-2 */
                  country: string;
                  line1: string;
                  line2: string | null;
                  /** @description as typed, trimmed and uppercased */
                  postalCode: string | null;
                  region: string | null;
                };
                geo: {
                  lat: number;
                  lng: number;
                } | null;
                impressionsPerPlay: number;
                loop: {
                  slots: number;
                  slotSeconds: number;
                };
                /** @description every day listed, [] = closed; null = open around the clock */
                operatingHours: {
                  fri: {
                    close: string;
                    open: string;
                  }[];
                  mon: {
                    close: string;
                    open: string;
                  }[];
                  sat: {
                    close: string;
                    open: string;
                  }[];
                  sun: {
                    close: string;
                    open: string;
                  }[];
                  thu: {
                    close: string;
                    open: string;
                  }[];
                  tue: {
                    close: string;
                    open: string;
                  }[];
                  wed: {
                    close: string;
                    open: string;
                  }[];
                } | null;
                panel: {
                  diagonalInches: number;
                };
                resolution: {
                  height: number;
                  width: number;
                };
                venueCategoryId: number;
                venueName: string;
              } | null;
              software: {
                agentVersion: string | null;
                apkVersion: string | null;
                platform: string | null;
                vmcVersion: string | null;
              };
              /** @enum {string} */
              status: 'online' | 'offline';
              timeZone: string | null;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMachinesSerialsUnclaimable: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                attempts: number | null;
                faults: string[];
                firstSeenAt: string | null;
                lastSeenAt: string | null;
                leg: string | null;
                serial: string;
                /** @enum {string} */
                source: 'machine' | 'first-contact';
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplaceDraftsGenerate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description What the poster should say and show */
          brief: string & (unknown & unknown);
          /** @description The draft to add to; none: a new draft */
          draftToken?: string;
          /** @description The sponsor, drawn on the built-in studio’s poster */
          sponsorName?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              creatives: {
                bytes: number;
                contentxRef: string | null;
                createdAt: string;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              }[];
              /** @description Keep it: it reaches this draft (and is shown only to its holder) */
              draftToken: string;
              generationsLeft: number;
              generationsUsed: number;
              uploadsLeft: number;
              usedByPurchase: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplaceDraftsLookup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          draftToken: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              creatives: {
                bytes: number;
                contentxRef: string | null;
                createdAt: string;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              }[];
              /** @description Keep it: it reaches this draft (and is shown only to its holder) */
              draftToken: string;
              generationsLeft: number;
              generationsUsed: number;
              uploadsLeft: number;
              usedByPurchase: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplaceDraftsUpload: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          contentType: string;
          dataBase64: string;
          /** @description The draft to add to; none: a new draft */
          draftToken?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              creatives: {
                bytes: number;
                contentxRef: string | null;
                createdAt: string;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              }[];
              /** @description Keep it: it reaches this draft (and is shown only to its holder) */
              draftToken: string;
              generationsLeft: number;
              generationsUsed: number;
              uploadsLeft: number;
              usedByPurchase: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMarketplaceKiosksByMachineNo: {
    parameters: {
      query?: {
        qr?: string;
      };
      header?: never;
      path: {
        machineNo: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              city: string | null;
              machineNo: string;
              operatorName: string | null;
              postalCode: string | null;
              /** @description Whether `qr` is this machine’s advertise QR */
              qrValid: boolean;
              /** @description Whether this kiosk is offered for advertising */
              sellable: boolean;
              venueName: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['MachineNotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplacePurchases: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          buyer: {
            /** Format: email */
            email: string & (unknown & unknown);
            name: string & (unknown & unknown);
            phone?: string & (unknown & unknown);
          };
          /** @description A creative of the buyer’s draft */
          creative: {
            creativeId: string;
            draftToken: string;
          };
          /**
           * Format: date
           * @description First day (UTC), today to 90 days ahead; default: as soon as approved
           */
          flightStart?: string;
          /** @description Flight length in 30-day months (the price list says which are sold: 1–6) */
          months: number;
          reach:
            | {
                /** @constant */
                kind: 'machine';
                /** @description The kiosk; default: the advertise QR's machine (source) */
                machineNo?: string;
              }
            | {
                /** @constant */
                kind: 'zip';
                zips: (string & (unknown & unknown))[];
              }
            | {
                /** @constant */
                kind: 'zips';
                zips: (string & (unknown & unknown))[];
              }
            | {
                city: string & (unknown & unknown);
                /** @constant */
                kind: 'city';
              }
            | {
                /** @constant */
                kind: 'network';
              };
          /** @description Slot tier: 1 standard, 2 double */
          slots: number;
          /** @description The advertise QR the buyer came from (`/advertise?machine=&qr=`) */
          source?: {
            machineNo: string;
            qrId: string;
          };
          sponsorName: string & (unknown & unknown);
          /** @enum {string} */
          sponsorType: 'local-business' | 'brand-coop';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              checkoutUrl: string;
              paymentIntentId: string;
              purchaseId: string;
              quote: {
                catalogVersion: string;
                currency: string;
                effectiveDate: string;
                flightEnd: string;
                flightStart: string;
                machines: number;
                monthlyRatePerMachineCents: number;
                months: number;
                multiplierBps: number;
                operators: {
                  amountCents: number;
                  machineNos: string[];
                  machines: number;
                  operatorName: string;
                }[];
                rateCents: number;
                reach: {
                  city?: string;
                  /** @enum {string} */
                  kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                  machineNo?: string;
                  zips?: string[];
                };
                slots: number;
                source: {
                  machineNo: string;
                  qrId: string;
                } | null;
                /** @enum {string} */
                sponsorType: 'local-business' | 'brand-coop';
                totalCents: number;
              };
              /** @constant */
              status: 'awaiting_payment';
              /** @description Shown this once, stored only hashed: it opens the status page */
              statusToken: string;
              statusUrl: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplacePurchasesLookup: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          statusToken: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              /** @description Where to pay, while awaiting payment */
              checkoutUrl: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              /** @description One per operator once paid, with its approval */
              lines: {
                amountCents: number;
                decidedAt: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              operators: {
                amountCents: number;
                machineNos: string[];
                machines: number;
                operatorName: string;
              }[];
              paidAt: string | null;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplacePurchasesResubmit: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The new ad: a creative of a fresh draft of the buyer’s */
          creative: {
            creativeId: string;
            draftToken: string;
          };
          /** @description The rejected line (its `lineId` on the status) */
          lineId: string;
          statusToken: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              buyer: {
                email: string;
                name: string;
                phone: string | null;
              };
              catalogVersion: string;
              /** @description Where to pay, while awaiting payment */
              checkoutUrl: string | null;
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                /** @enum {string} */
                kind: 'image' | 'video';
                mediaType: string;
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              currency: string;
              flightEnd: string;
              flightStart: string;
              generationsUsed: number;
              /** @description One per operator once paid, with its approval */
              lines: {
                amountCents: number;
                decidedAt: string | null;
                lineId: string;
                machineNos: string[];
                machines: number;
                operatorName: string;
                reason: string | null;
                refund: {
                  amountCents: number;
                  /** @description When it was issued or last failed; null while owed */
                  at: string | null;
                  /** @description failed: the processor’s reason */
                  reason: string | null;
                  /** @description The processor’s refund id, once issued */
                  refundId: string | null;
                  /**
                   * @description owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                refundOwedCents: number;
                /** @description How many times the buyer sent this line back for approval */
                resubmissions: number;
                /** @description Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued) */
                resubmittable: boolean;
                /** @enum {string} */
                status: 'pending_approval' | 'approved' | 'rejected';
              }[];
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              operators: {
                amountCents: number;
                machineNos: string[];
                machines: number;
                operatorName: string;
              }[];
              paidAt: string | null;
              purchaseId: string;
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              /** @description Sum over rejected lines (each line’s `refund` says whether it was issued) */
              refundOwedCents: number;
              slots: number;
              sponsorName: string;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              /** @enum {string} */
              status: 'awaiting_payment' | 'pending_approval' | 'approved' | 'partially_approved' | 'rejected';
              totalCents: number;
              updatedAt: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplaceQuote: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * Format: date
           * @description First day (UTC), today to 90 days ahead; default: as soon as approved
           */
          flightStart?: string;
          /** @description Flight length in 30-day months (the price list says which are sold: 1–6) */
          months: number;
          reach:
            | {
                /** @constant */
                kind: 'machine';
                /** @description The kiosk; default: the advertise QR's machine (source) */
                machineNo?: string;
              }
            | {
                /** @constant */
                kind: 'zip';
                zips: (string & (unknown & unknown))[];
              }
            | {
                /** @constant */
                kind: 'zips';
                zips: (string & (unknown & unknown))[];
              }
            | {
                city: string & (unknown & unknown);
                /** @constant */
                kind: 'city';
              }
            | {
                /** @constant */
                kind: 'network';
              };
          /** @description Slot tier: 1 standard, 2 double */
          slots: number;
          /** @description The advertise QR the buyer came from (`/advertise?machine=&qr=`) */
          source?: {
            machineNo: string;
            qrId: string;
          };
          /** @enum {string} */
          sponsorType: 'local-business' | 'brand-coop';
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              catalogVersion: string;
              currency: string;
              effectiveDate: string;
              flightEnd: string;
              flightStart: string;
              machines: number;
              monthlyRatePerMachineCents: number;
              months: number;
              multiplierBps: number;
              operators: {
                amountCents: number;
                machineNos: string[];
                machines: number;
                operatorName: string;
              }[];
              rateCents: number;
              reach: {
                city?: string;
                /** @enum {string} */
                kind: 'machine' | 'zip' | 'zips' | 'city' | 'network';
                machineNo?: string;
                zips?: string[];
              };
              slots: number;
              source: {
                machineNo: string;
                qrId: string;
              } | null;
              /** @enum {string} */
              sponsorType: 'local-business' | 'brand-coop';
              totalCents: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getMarketplaceTestPaymentsByIntentId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        intentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              amountCents: number;
              createdAt: string;
              currency: string;
              description: string;
              intentId: string;
              purchaseId: string;
              /** @description Where the buyer is sent once paid (the intent’s returnUrl); null: the checkout page says paid */
              returnUrl: string | null;
              /** @enum {string} */
              status: 'requires_payment' | 'succeeded';
              succeededAt: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postMarketplaceTestPaymentsByIntentIdComplete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        intentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              delivery: {
                answer: unknown;
                error: string | null;
                status: number | null;
                url: string;
              };
              intent: {
                amountCents: number;
                createdAt: string;
                currency: string;
                description: string;
                intentId: string;
                purchaseId: string;
                /** @description Where the buyer is sent once paid (the intent’s returnUrl); null: the checkout page says paid */
                returnUrl: string | null;
                /** @enum {string} */
                status: 'requires_payment' | 'succeeded';
                succeededAt: string | null;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getMetaStateMachinesByName: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        name: 'dfy_deal';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              actions: {
                actors: string[];
                confirmGate: boolean;
                name: string;
                note: string;
                resolves: string[];
                stages: string[];
              }[];
              checkpoints: {
                acknowledgeable: boolean;
                kind: string;
                raisedAt: string[];
                raisedWhen: string;
                resolvedBy: string;
              }[];
              initial: string;
              name: string;
              rules: string[];
              states: {
                name: string;
                raises: string[];
                rank: number;
                terminal: boolean;
              }[];
              transitions: {
                actors: string[];
                blockedBy: string[];
                checkpoints: string[];
                conditions: string[];
                confirmGate: boolean;
                from: string | null;
                note: string;
                to: string;
                /** @enum {string} */
                trigger:
                  | 'deal_created'
                  | 'preorder_paid'
                  | 'advance'
                  | 'scout_accepted'
                  | 'negotiation_reviewed'
                  | 'lease_sent'
                  | 'signature'
                  | 'payment'
                  | 'tracking_recorded'
                  | 'install_began'
                  | 'onboarded'
                  | 'cancel';
              }[];
              triggers: {
                actors: string[];
                confirmGate: boolean;
                name: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getOrders: {
    parameters: {
      query?: {
        /** @description only orders of this sales channel (walkup, api_drop, …) */
        channel?: string;
        /** @description inclusive to the second; same time zone as startTime */
        endTime?: string;
        machineNo?: string;
        page?: number;
        /** @description only orders in this pay status (paid, shipped, refunded, refund_owed) */
        payStatus?: string;
        size?: number;
        /** @description inclusive; read in the machine's time zone when machineNo names one, else UTC */
        startTime?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                aisleNo: number;
                channel: string;
                /** @description the receipt amount; never restated */
                chargedCents: number;
                createdAt: string;
                machineNo: string;
                /** @description chargedCents − taxCents */
                netCents: number;
                orderNumber: string;
                /** @description decimal currency amount */
                paidPrice: number;
                /** @description cashless orders only */
                payment?: {
                  cardBrand: string | null;
                  last4: string | null;
                  /** @description always the machine owner's merchant account */
                  settlementAccount: string | null;
                  terminalId: string;
                };
                payMethod: string;
                /** @description shipped = paid and dispensed; refunded = customer refunded */
                payStatus: string;
                quantity: number;
                /** @description pay-by-phone orders only (paid through a payment processor); null: nothing is owed back */
                refund?: {
                  amountCents: number;
                  /** @description when it was issued, or last refused */
                  at: string | null;
                  /** @description why the processor refused it (failed only) */
                  reason: string | null;
                  /** @description the processor's refund id */
                  refundId: string | null;
                  /**
                   * @description owed: not given back yet; issued: the processor took the refund; failed: the processor refused it (reason)
                   * @enum {string}
                   */
                  status: 'owed' | 'issued' | 'failed';
                } | null;
                /** @description decimal currency amount of tax inside chargedCents */
                tax: number;
                taxCents: number;
                /** @description percent applied: the rate stamped at sale time, else the machine’s current salesTaxRate; null when no tax applies */
                taxRate: number | null;
              }[];
              size: number;
              /** @description the zone startTime/endTime were read in */
              timeZone: string;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getOrdersByOrderNumber: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        orderNumber: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              channel: string;
              /** @description the receipt amount; never restated */
              chargedCents: number;
              createdAt: string;
              machineNo: string;
              /** @description chargedCents − taxCents */
              netCents: number;
              orderNumber: string;
              /** @description decimal currency amount */
              paidPrice: number;
              /** @description cashless orders only */
              payment?: {
                cardBrand: string | null;
                last4: string | null;
                /** @description always the machine owner's merchant account */
                settlementAccount: string | null;
                terminalId: string;
              };
              payMethod: string;
              /** @description shipped = paid and dispensed; refunded = customer refunded */
              payStatus: string;
              quantity: number;
              /** @description pay-by-phone orders only (paid through a payment processor); null: nothing is owed back */
              refund?: {
                amountCents: number;
                /** @description when it was issued, or last refused */
                at: string | null;
                /** @description why the processor refused it (failed only) */
                reason: string | null;
                /** @description the processor's refund id */
                refundId: string | null;
                /**
                 * @description owed: not given back yet; issued: the processor took the refund; failed: the processor refused it (reason)
                 * @enum {string}
                 */
                status: 'owed' | 'issued' | 'failed';
              } | null;
              /** @description decimal currency amount of tax inside chargedCents */
              tax: number;
              taxCents: number;
              /** @description percent applied: the rate stamped at sale time, else the machine’s current salesTaxRate; null when no tax applies */
              taxRate: number | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getOrdersSummary: {
    parameters: {
      query?: {
        /** @description inclusive to the second; same time zone as startTime */
        endTime?: string;
        machineNo?: string;
        /** @description inclusive; read in the machine's time zone when machineNo names one, else UTC */
        startTime?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              byChannel: {
                channel: string;
                count: number;
                /** @description sum of chargedCents, every status */
                grossCents: number;
                /** @description sales − tax */
                netCents: number;
                /** @description chargedCents of refunded orders */
                refundedCents: number;
                /** @description gross − refunded */
                salesCents: number;
                /** @description tax inside sales (refunded orders carry none) */
                taxCents: number;
              }[];
              /** @description one entry per calendar day in timeZone from startTime's day to endTime's day, oldest first, days without orders as zeros; its sums are the totals. Null unless both startTime and endTime are given; a window over more than 366 days is refused (400) */
              byDay:
                | {
                    count: number;
                    /** @description YYYY-MM-DD, a calendar day in timeZone */
                    date: string;
                    /** @description sum of chargedCents, every status */
                    grossCents: number;
                    /** @description sales − tax */
                    netCents: number;
                    /** @description chargedCents of refunded orders */
                    refundedCents: number;
                    /** @description gross − refunded */
                    salesCents: number;
                    /** @description tax inside sales (refunded orders carry none) */
                    taxCents: number;
                  }[]
                | null;
              byMachine: {
                count: number;
                /** @description sum of chargedCents, every status */
                grossCents: number;
                machineNo: string;
                /** @description sales − tax */
                netCents: number;
                /** @description chargedCents of refunded orders */
                refundedCents: number;
                /** @description gross − refunded */
                salesCents: number;
                /** @description tax inside sales (refunded orders carry none) */
                taxCents: number;
              }[];
              byPayStatus: {
                chargedCents: number;
                count: number;
                payStatus: string;
              }[];
              count: number;
              /** @description the currency of the amounts: the operator's (the machine owner's when an admin names a machine); null for an admin's whole-fleet summary */
              currency: string | null;
              endTime: string | null;
              /** @description sum of chargedCents, every status */
              grossCents: number;
              machineNo: string | null;
              /** @description sales − tax */
              netCents: number;
              /** @description chargedCents of refunded orders */
              refundedCents: number;
              /** @description gross − refunded */
              salesCents: number;
              startTime: string | null;
              /** @description tax inside sales (refunded orders carry none) */
              taxCents: number;
              timeZone: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPayments: {
    parameters: {
      query?: {
        /** @description inclusive to the second; same time zone as startTime */
        endTime?: string;
        machineNo?: string;
        page?: number;
        size?: number;
        /** @description inclusive; read in the machine's time zone when machineNo names one, else UTC */
        startTime?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description decimal currency amount: the receipt amount */
                amount: number;
                amountCents: number;
                cardBrand: string | null;
                createdAt: string;
                last4: string | null;
                machineNo: string;
                orderNumber: string;
                payMethod: string;
                payStatus: string;
                settlementAccount: string | null;
                /** @enum {string} */
                status: 'captured' | 'refunded';
                terminalId: string;
              }[];
              size: number;
              timeZone: string;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPaymentsCashlessTerminals: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              boundAt: string;
              machineNo: string;
              provider: string;
              /** @description the merchant account the reader feeds */
              settlementAccount: string;
              terminalId: string;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postPaymentsCashlessWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              data: {
                aisleNo?: number;
                amountCents: number;
                cardBrand: string;
                last4: string;
                /**
                 * @default card
                 * @enum {string}
                 */
                method?: 'card' | 'wallet';
                orderNumber?: string;
                paymentId: string;
                /** @default 1 */
                quantity?: number;
                terminalId: string;
              };
              id: string;
              /** @constant */
              type: 'payment.captured';
            }
          | {
              data: {
                paymentId: string;
                reason?: string;
              };
              id: string;
              /** @constant */
              type: 'payment.refunded';
            };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description true when this event (or this payment’s capture) was already processed: nothing changed */
              duplicate: boolean;
              eventId: string;
              orderNumber: string | null;
              payStatus: string | null;
              type: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['SignatureUnauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getPaymentsSummary: {
    parameters: {
      query?: {
        /** @description inclusive to the second; same time zone as startTime */
        endTime?: string;
        machineNo?: string;
        /** @description inclusive; read in the machine's time zone when machineNo names one, else UTC */
        startTime?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              accounts: {
                /** @description every cashless receipt amount, refunded or not */
                capturedCents: number;
                count: number;
                refundedCents: number;
                /** @description captured − refunded */
                settledCents: number;
                settlementAccount: string;
              }[];
              /** @description every cashless receipt amount, refunded or not */
              capturedCents: number;
              count: number;
              endTime: string | null;
              machineNo: string | null;
              refundedCents: number;
              /** @description captured − refunded */
              settledCents: number;
              startTime: string | null;
              timeZone: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPayouts: {
    parameters: {
      query?: {
        /** @description admin credentials only */
        operatorEmail?: string & (unknown & unknown);
        /** @description YYYY-MM (UTC); default the last month that ended */
        period?: string;
        venueId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              operatorEmail: string | null;
              period: string;
              statements: {
                /** @description the venue's revShareBps (frozen on a paid statement) */
                bps: number;
                lines: {
                  bps: number;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                  commissionFrom: string;
                  commissionRule: ('move' | 'deploymentDate' | 'firstSale') | string;
                  machineNo: string;
                  /** @description net sales, decimal currency amount */
                  netSales: number;
                  /** @description net (after tax) sales inside the window, integer cents */
                  netSalesCents: number;
                  /** @description on a statement recorded as paid (its bps are frozen) */
                  paid: boolean;
                  /** @description YYYY-MM: a line never spans two months */
                  period: string;
                  /** @description host share, decimal currency amount */
                  share: number;
                  /** @description bps over netSalesCents, rounded half up once per line, integer cents */
                  shareCents: number;
                  /** @description sales inside the window; 0 against a machine that sold before signals the move rule */
                  vends: number;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the accruing window inside the report and the period */
                  windowFrom: string;
                  /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000, exclusive */
                  windowTo: string;
                }[];
                /** @description net sales of every line, integer cents */
                netSalesCents: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                paidAt: string | null;
                /** @description unpaid and the period has ended: POST /api/v1/payouts may record it */
                payable: boolean;
                period: string;
                reference: string | null;
                /** @enum {string} */
                status: 'paid' | 'unpaid';
                /** @description what the host is paid, decimal currency amount */
                total: number;
                /** @description sum of the lines’ shares: what the host is paid, integer cents */
                totalCents: number;
                vends: number;
                venueId: string;
                venueName: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postPayouts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          period: string;
          reference?: string & (unknown & unknown);
          venueId: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description the venue's revShareBps (frozen on a paid statement) */
              bps: number;
              lines: {
                bps: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                commissionFrom: string;
                commissionRule: ('move' | 'deploymentDate' | 'firstSale') | string;
                machineNo: string;
                /** @description net sales, decimal currency amount */
                netSales: number;
                /** @description net (after tax) sales inside the window, integer cents */
                netSalesCents: number;
                /** @description on a statement recorded as paid (its bps are frozen) */
                paid: boolean;
                /** @description YYYY-MM: a line never spans two months */
                period: string;
                /** @description host share, decimal currency amount */
                share: number;
                /** @description bps over netSalesCents, rounded half up once per line, integer cents */
                shareCents: number;
                /** @description sales inside the window; 0 against a machine that sold before signals the move rule */
                vends: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the accruing window inside the report and the period */
                windowFrom: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000, exclusive */
                windowTo: string;
              }[];
              /** @description net sales of every line, integer cents */
              netSalesCents: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              paidAt: string | null;
              /** @description unpaid and the period has ended: POST /api/v1/payouts may record it */
              payable: boolean;
              period: string;
              reference: string | null;
              /** @enum {string} */
              status: 'paid' | 'unpaid';
              /** @description what the host is paid, decimal currency amount */
              total: number;
              /** @description sum of the lines’ shares: what the host is paid, integer cents */
              totalCents: number;
              vends: number;
              venueId: string;
              venueName: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPnl: {
    parameters: {
      query?: {
        /** @description first day, inclusive (UTC); default the first day of the month of `to` */
        from?: string & unknown;
        machineNo?: string;
        /** @description admin credentials only; without it an admin sees every operator together */
        operatorEmail?: string & (unknown & unknown);
        /** @description last day, inclusive (UTC); default today */
        to?: string & unknown;
        /** @description the venue's machines while they stood there, its host lines and the entries against it */
        venueId?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description expenses, decimal currency amount */
              expenses: number;
              /** @description expense entries, integer cents */
              expensesCents: number;
              /** @description 2% fee, decimal currency amount */
              fee: number;
              feeBps: number;
              /** @description the 2% fee: 200 bps of each sale’s receipt amount, rounded per sale, integer cents */
              feeCents: number;
              /** @description FIFO cost, decimal currency amount */
              fifoCogs: number;
              /** @description FIFO cost drawn by sales in the range, integer cents */
              fifoCogsCents: number;
              from: string;
              /** @description gross, decimal currency amount */
              gross: number;
              /** @description receipt amounts of sales (shipped orders; refunded ones are not sales), integer cents */
              grossCents: number;
              hostLines: {
                bps: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                commissionFrom: string;
                commissionRule: ('move' | 'deploymentDate' | 'firstSale') | string;
                machineNo: string;
                /** @description net sales, decimal currency amount */
                netSales: number;
                /** @description net (after tax) sales inside the window, integer cents */
                netSalesCents: number;
                /** @description on a statement recorded as paid (its bps are frozen) */
                paid: boolean;
                /** @description YYYY-MM: a line never spans two months */
                period: string;
                /** @description host share, decimal currency amount */
                share: number;
                /** @description bps over netSalesCents, rounded half up once per line, integer cents */
                shareCents: number;
                /** @description sales inside the window; 0 against a machine that sold before signals the move rule */
                vends: number;
                venueId: string;
                venueName: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the accruing window inside the report and the period */
                windowFrom: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000, exclusive */
                windowTo: string;
              }[];
              /** @description host share, decimal currency amount */
              hostShare: number;
              /** @description sum of hostLines[].shareCents, integer cents */
              hostShareCents: number;
              /** @description gross − tax = net − FIFO − host share − referrals − payroll − 2% fee − expenses = operator net, in decimal amounts */
              identity: string;
              machineNo: string | null;
              /** @description net, decimal currency amount */
              net: number;
              /** @description gross − tax, integer cents */
              netCents: number;
              operatorEmail: string | null;
              /** @description operator net, decimal currency amount */
              operatorNet: number;
              /** @description net − FIFO − host share − referrals − payroll − fee − expenses, integer cents */
              operatorNetCents: number;
              /** @description payroll, decimal currency amount */
              payroll: number;
              /** @description payroll entries, integer cents */
              payrollCents: number;
              /** @description referrals, decimal currency amount */
              referrals: number;
              /** @description referral entries, integer cents */
              referralsCents: number;
              /** @description receipt amounts of refunded orders in the range (not in gross), integer cents */
              refundedCents: number;
              refundedCount: number;
              /** @description tax, decimal currency amount */
              tax: number;
              /** @description tax inside gross, per order at its effective rate, integer cents */
              taxCents: number;
              /** @constant */
              timeZone: 'UTC';
              to: string;
              /** @description sales counted in gross */
              vends: number;
              venueId: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPricing: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @constant */
              currency: 'USD';
              /** @description YYYY-MM-DD: in force from 00:00 UTC of that day */
              effectiveDate: string;
              /** @description Studio generations a buyer may use per purchase */
              generationsPerPurchase: number;
              /** @constant */
              monthDays: 30;
              months: {
                max: number;
                min: number;
              };
              /** @description Cents per machine per month (30 days) per slot, by sponsor type (brand-coop: a brand stocked in the kiosk) */
              rates: {
                'brand-coop': number;
                'local-business': number;
              };
              /** @description How a quote is computed, rounding included */
              rule: string;
              /** @description Slots per loop rotation */
              slotTiers: {
                /** @constant */
                double: 2;
                /** @constant */
                standard: 1;
              };
              /** @description The catalog version; a quote records the version it used */
              version: string;
              /** @description Multiplier by the number of machines the reach resolves to, in basis points (9000 = 0.9) */
              volumeTiers: {
                maxMachines: number | null;
                minMachines: number;
                multiplierBps: number;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getPrizesReport: {
    parameters: {
      query?: {
        from?: string;
        machineNo?: string;
        period?: string;
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              budget: {
                budget: number | null;
                budgetCents: number | null;
                left: number | null;
                leftCents: number | null;
                machineNo: string;
                period: string;
                spent: number;
                spentCents: number;
                used: number | null;
              }[];
              byMachine: {
                funnel: {
                  entries: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  entryToPlay: number | null;
                  plays: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  playToWin: number | null;
                  scans: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  scanToEntry: number | null;
                  /** @description wins / scans */
                  scanToWin: number | null;
                  wins: number;
                };
                /** @description the machines' shipped sales in the window (charged, refunds excluded), decimal */
                grossRevenue: number;
                grossRevenueCents: number;
                machineNo: string;
                /** @description prize cost of the accepted wins in the window, decimal */
                prizeCost: number;
                prizeCostCents: number;
              }[];
              byMechanic: {
                funnel: {
                  entries: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  entryToPlay: number | null;
                  plays: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  playToWin: number | null;
                  scans: number;
                  /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                  scanToEntry: number | null;
                  /** @description wins / scans */
                  scanToWin: number | null;
                  wins: number;
                };
                /** @enum {string} */
                mechanic: 'spinToWin' | 'scratchCard' | 'loyaltyStamp';
                prizeCost: number;
                prizeCostCents: number;
              }[];
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000, included */
              from: string;
              funnel: {
                entries: number;
                /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                entryToPlay: number | null;
                plays: number;
                /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                playToWin: number | null;
                scans: number;
                /** @description conversion from the step before, 4 decimals, half up; null when the step before is 0 */
                scanToEntry: number | null;
                /** @description wins / scans */
                scanToWin: number | null;
                wins: number;
              };
              /** @description the machines' shipped sales in the window (charged, refunds excluded), decimal */
              grossRevenue: number;
              grossRevenueCents: number;
              machineNo: string | null;
              /** @description prize cost of the accepted wins in the window, decimal */
              prizeCost: number;
              prizeCostCents: number;
              refused: {
                clock_skew: number;
                mechanic_disabled: number;
                over_budget: number;
                over_daily_cap: number;
                over_max_prize_value: number;
              };
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000, excluded */
              to: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getPurchases: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                id: string;
                /** @description the cost layers the lines created, in line order */
                lots: {
                  id: string;
                  purchaseOrderRef: string | null;
                  qtyReceived: number;
                  qtyRemaining: number;
                  receivedAt: string;
                  sku: string;
                  /** @description decimal currency amount */
                  unitCost: number;
                  unitCostCents: number;
                }[];
                /** @description YYYY-MM-DD */
                orderedOn: string;
                poRef: string;
                receivedAt: string;
                /** @description decimal currency amount: Σ qty × unitCost */
                total: number;
                totalCents: number;
                vendor: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postPurchases: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          lines: {
            qty: number;
            sku: string & (unknown & unknown);
            unitCostUsd: number;
          }[];
          /** Format: date */
          orderedOn: string;
          poRef: string & (unknown & unknown);
          vendor: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              id: string;
              /** @description the cost layers the lines created, in line order */
              lots: {
                id: string;
                purchaseOrderRef: string | null;
                qtyReceived: number;
                qtyRemaining: number;
                receivedAt: string;
                sku: string;
                /** @description decimal currency amount */
                unitCost: number;
                unitCostCents: number;
              }[];
              /** @description YYYY-MM-DD */
              orderedOn: string;
              poRef: string;
              receivedAt: string;
              /** @description decimal currency amount: Σ qty × unitCost */
              total: number;
              totalCents: number;
              vendor: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getRestock: {
    parameters: {
      query?: {
        crewId?: string;
        machineNo?: string;
        page?: number;
        size?: number;
        status?: 'planned' | 'in_progress' | 'done' | 'cancelled';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                cancelledAt: string | null;
                cancelledBy: string | null;
                cancelReason: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                completedAt: string | null;
                completedBy: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                /** @description email of the person who planned it */
                createdBy: string;
                crewId: string;
                id: string;
                /** @description the pick list, one line per aisle */
                lines: {
                  aisleNo: number;
                  faulted: boolean;
                  /** @description units put in on completion (0 for an aisle not listed); null until done */
                  filled: number | null;
                  /** @description the aisle's maxStock when the run was planned */
                  par: number;
                  /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                  pick: number;
                  productName: string | null;
                  sku: string | null;
                  /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                  stockAfter: number | null;
                  /** @description currentStock when the run was planned */
                  stockAtPlan: number;
                }[];
                machineNo: string;
                notes: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                startedAt: string | null;
                startedBy: string | null;
                /** @enum {string} */
                status: 'planned' | 'in_progress' | 'done' | 'cancelled';
                /** @description how many of what to bring: picks summed by SKU */
                totals: {
                  pick: number;
                  /** @description the product, or "aisle N" for an aisle without a SKU */
                  productName: string;
                  /** @description null for an aisle without a SKU (its own group) */
                  sku: string | null;
                }[];
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postRestock: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          crewId?: string;
          machineNo: string;
          notes?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              cancelledAt: string | null;
              cancelledBy: string | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              completedAt: string | null;
              completedBy: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the person who planned it */
              createdBy: string;
              crewId: string;
              id: string;
              /** @description the pick list, one line per aisle */
              lines: {
                aisleNo: number;
                faulted: boolean;
                /** @description units put in on completion (0 for an aisle not listed); null until done */
                filled: number | null;
                /** @description the aisle's maxStock when the run was planned */
                par: number;
                /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                pick: number;
                productName: string | null;
                sku: string | null;
                /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                stockAfter: number | null;
                /** @description currentStock when the run was planned */
                stockAtPlan: number;
              }[];
              machineNo: string;
              notes: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              startedAt: string | null;
              startedBy: string | null;
              /** @enum {string} */
              status: 'planned' | 'in_progress' | 'done' | 'cancelled';
              /** @description how many of what to bring: picks summed by SKU */
              totals: {
                pick: number;
                /** @description the product, or "aisle N" for an aisle without a SKU */
                productName: string;
                /** @description null for an aisle without a SKU (its own group) */
                sku: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Machine not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      /** @description The request conflicts with the current state (spec 1 §7). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 409,
           *       "message": "Machine SBX-ALICE-0001 already has an open restock run: rst_… (planned)",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 409;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getRestockByRunId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              cancelledAt: string | null;
              cancelledBy: string | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              completedAt: string | null;
              completedBy: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the person who planned it */
              createdBy: string;
              crewId: string;
              id: string;
              /** @description the pick list, one line per aisle */
              lines: {
                aisleNo: number;
                faulted: boolean;
                /** @description units put in on completion (0 for an aisle not listed); null until done */
                filled: number | null;
                /** @description the aisle's maxStock when the run was planned */
                par: number;
                /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                pick: number;
                productName: string | null;
                sku: string | null;
                /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                stockAfter: number | null;
                /** @description currentStock when the run was planned */
                stockAtPlan: number;
              }[];
              machineNo: string;
              notes: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              startedAt: string | null;
              startedBy: string | null;
              /** @enum {string} */
              status: 'planned' | 'in_progress' | 'done' | 'cancelled';
              /** @description how many of what to bring: picks summed by SKU */
              totals: {
                pick: number;
                /** @description the product, or "aisle N" for an aisle without a SKU */
                productName: string;
                /** @description null for an aisle without a SKU (its own group) */
                sku: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Restock run not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postRestockByRunIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              cancelledAt: string | null;
              cancelledBy: string | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              completedAt: string | null;
              completedBy: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the person who planned it */
              createdBy: string;
              crewId: string;
              id: string;
              /** @description the pick list, one line per aisle */
              lines: {
                aisleNo: number;
                faulted: boolean;
                /** @description units put in on completion (0 for an aisle not listed); null until done */
                filled: number | null;
                /** @description the aisle's maxStock when the run was planned */
                par: number;
                /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                pick: number;
                productName: string | null;
                sku: string | null;
                /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                stockAfter: number | null;
                /** @description currentStock when the run was planned */
                stockAtPlan: number;
              }[];
              machineNo: string;
              notes: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              startedAt: string | null;
              startedBy: string | null;
              /** @enum {string} */
              status: 'planned' | 'in_progress' | 'done' | 'cancelled';
              /** @description how many of what to bring: picks summed by SKU */
              totals: {
                pick: number;
                /** @description the product, or "aisle N" for an aisle without a SKU */
                productName: string;
                /** @description null for an aisle without a SKU (its own group) */
                sku: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Restock run not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      /** @description The request conflicts with the current state (spec 1 §7). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 409,
           *       "message": "Cannot cancel a restock run that is done",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 409;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postRestockByRunIdComplete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisles: {
            aisleNo: number;
            filled: number;
          }[];
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              cancelledAt: string | null;
              cancelledBy: string | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              completedAt: string | null;
              completedBy: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the person who planned it */
              createdBy: string;
              crewId: string;
              id: string;
              /** @description the pick list, one line per aisle */
              lines: {
                aisleNo: number;
                faulted: boolean;
                /** @description units put in on completion (0 for an aisle not listed); null until done */
                filled: number | null;
                /** @description the aisle's maxStock when the run was planned */
                par: number;
                /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                pick: number;
                productName: string | null;
                sku: string | null;
                /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                stockAfter: number | null;
                /** @description currentStock when the run was planned */
                stockAtPlan: number;
              }[];
              machineNo: string;
              notes: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              startedAt: string | null;
              startedBy: string | null;
              /** @enum {string} */
              status: 'planned' | 'in_progress' | 'done' | 'cancelled';
              /** @description how many of what to bring: picks summed by SKU */
              totals: {
                pick: number;
                /** @description the product, or "aisle N" for an aisle without a SKU */
                productName: string;
                /** @description null for an aisle without a SKU (its own group) */
                sku: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Restock run not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      /** @description The request conflicts with the current state (spec 1 §7). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 409,
           *       "message": "Cannot complete a restock run that is done",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 409;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postRestockByRunIdStart: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              cancelledAt: string | null;
              cancelledBy: string | null;
              cancelReason: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              completedAt: string | null;
              completedBy: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description email of the person who planned it */
              createdBy: string;
              crewId: string;
              id: string;
              /** @description the pick list, one line per aisle */
              lines: {
                aisleNo: number;
                faulted: boolean;
                /** @description units put in on completion (0 for an aisle not listed); null until done */
                filled: number | null;
                /** @description the aisle's maxStock when the run was planned */
                par: number;
                /** @description max(0, par − stockAtPlan); 0 for a faulted aisle */
                pick: number;
                productName: string | null;
                sku: string | null;
                /** @description the aisle's stock after completion (clamped at maxStock); null until done */
                stockAfter: number | null;
                /** @description currentStock when the run was planned */
                stockAtPlan: number;
              }[];
              machineNo: string;
              notes: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              startedAt: string | null;
              startedBy: string | null;
              /** @enum {string} */
              status: 'planned' | 'in_progress' | 'done' | 'cancelled';
              /** @description how many of what to bring: picks summed by SKU */
              totals: {
                pick: number;
                /** @description the product, or "aisle N" for an aisle without a SKU */
                productName: string;
                /** @description null for an aisle without a SKU (its own group) */
                sku: string | null;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Restock run not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      /** @description The request conflicts with the current state (spec 1 §7). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 409,
           *       "message": "Cannot start a restock run that is done",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 409;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getRestockPickList: {
    parameters: {
      query?: {
        machineNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @description aisles with a product that are faulted: nothing is loaded for them until repaired */
              faulted: {
                aisleNo: number;
                machineNo: string;
                productName: string | null;
                sku: string | null;
              }[];
              /** @description how many machines the list covers */
              machines: number;
              /** @description products to load, most units first; aisles without a SKU and lines picking nothing are left out */
              products: {
                machines: {
                  aisles: {
                    aisleNo: number;
                    /** @description max(0, maxStock − currentStock) */
                    units: number;
                  }[];
                  machineNo: string;
                  name: string;
                  units: number;
                }[];
                /** @description the product's name in its first aisle, else the SKU */
                productName: string;
                sku: string;
                /** @description units to bring: the picks of its aisles summed over the machines */
                units: number;
              }[];
              /** @description every unit to bring, all products */
              units: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Machine not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getRollouts: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              current: {
                allowDowngrade: boolean;
                canary: string[];
                createdAt: string;
                heldAt: string | null;
                holdReason: string | null;
                note: string;
                percent: number;
                /** @enum {string} */
                phase: 'rolling' | 'held' | 'complete';
                progress: {
                  blocked: number;
                  deferring: number;
                  eligible: number;
                  noArtifact: number;
                  onTarget: number;
                  pinned: number;
                  total: number;
                };
                targetVersion: string;
                updatedAt: string;
              } | null;
              history: {
                blocked: number;
                deferring: number;
                eligible: number;
                noArtifact: number;
                onTarget: number;
                /** @enum {string} */
                phase: 'rolling' | 'held' | 'complete';
                pinned: number;
                takenAt: string;
                targetVersion: string;
                total: number;
              }[];
              page: number;
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getScreensavers: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        status?: 'pending' | 'approved' | 'retired';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                createdAt: string;
                creative: {
                  bytes: number;
                  contentxRef: string | null;
                  durationMs: number | null;
                  height: number;
                  id: string;
                  /** @enum {string} */
                  kind: 'image' | 'video';
                  /** @enum {string} */
                  mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                  /** @enum {string} */
                  source: 'upload' | 'contentx';
                  url: string;
                  width: number;
                };
                id: string;
                machineNos: string[] | null;
                name: string;
                operatorEmail?: string;
                reviewedAt: string | null;
                /** @enum {string} */
                status: 'pending' | 'approved' | 'retired';
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postScreensavers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          contentType: string;
          dataBase64: string;
          machineNos?: string[];
          name: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              id: string;
              machineNos: string[] | null;
              name: string;
              operatorEmail?: string;
              reviewedAt: string | null;
              /** @enum {string} */
              status: 'pending' | 'approved' | 'retired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postScreensaversByIdApprove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              id: string;
              machineNos: string[] | null;
              name: string;
              operatorEmail?: string;
              reviewedAt: string | null;
              /** @enum {string} */
              status: 'pending' | 'approved' | 'retired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postScreensaversByIdRetire: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              createdAt: string;
              creative: {
                bytes: number;
                contentxRef: string | null;
                durationMs: number | null;
                height: number;
                id: string;
                /** @enum {string} */
                kind: 'image' | 'video';
                /** @enum {string} */
                mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
                /** @enum {string} */
                source: 'upload' | 'contentx';
                url: string;
                width: number;
              };
              id: string;
              machineNos: string[] | null;
              name: string;
              operatorEmail?: string;
              reviewedAt: string | null;
              /** @enum {string} */
              status: 'pending' | 'approved' | 'retired';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getSubscriptionsPricing: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @constant */
              currency: 'USD';
              effectiveDate: string;
              /** @description Cents per device (a machine in service) per period */
              perDeviceMonthlyCents: number;
              periodDays: number;
              trialDays: number;
              version: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaxRemittances: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                id: string;
                net: number;
                netCents: number;
                /** @description admin credentials only */
                operatorEmail?: string | null;
                /** @description the period’s sales (every status but refunded) */
                orders: number;
                period: string;
                reference: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                remittedAt: string;
                /** @description decimal of salesCents: charged amounts, tax included */
                sales: number;
                salesCents: number;
                tax: number;
                /** @description tax remitted: each sale’s tax at its rate, rounded per sale, summed */
                taxCents: number;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postTaxRemittances: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description YYYY-MM (UTC calendar month); must have ended */
          period: string;
          reference?: (string & (unknown & unknown)) | null;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              id: string;
              net: number;
              netCents: number;
              /** @description admin credentials only */
              operatorEmail?: string | null;
              /** @description the period’s sales (every status but refunded) */
              orders: number;
              period: string;
              reference: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              remittedAt: string;
              /** @description decimal of salesCents: charged amounts, tax included */
              sales: number;
              salesCents: number;
              tax: number;
              /** @description tax remitted: each sale’s tax at its rate, rounded per sale, summed */
              taxCents: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaxRestatementsBlocked: {
    parameters: {
      query?: {
        machineNo?: string;
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: when the change was refused */
                at: string;
                id: string;
                /** @description the machine’s rate before: the period’s unstamped orders stay at it */
                keptRate: number | null;
                machineNo: string;
                /** @description admin credentials only */
                operatorEmail?: string | null;
                /** @description the machine’s orders in the period, left unchanged */
                orders: number;
                /** @description YYYY-MM */
                period: string;
                /** @enum {string} */
                reason: 'remitted' | 'paid_out';
                /** @description the salesTaxRate the PATCH recorded (percent); null: cleared */
                requestedRate: number | null;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getTaxSchedules: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                bps: number;
                createdAt: string;
                /** @description YYYY-MM-DD as written */
                effectiveAt: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the first instant it applies (00:00 UTC) */
                effectiveFrom: string;
                id: string;
                /** @description the row that stamps a sale made now (on machines without their own salesTaxRate) */
                inEffect: boolean;
                /** @description admin credentials only */
                operatorEmail?: string | null;
                /** @description bps / 100: the percent stamped on sales (orders’ taxRate) */
                ratePercent: number;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postTaxSchedules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description basis points of the tax-inclusive rate: 888 = 8.88%; 0 = no tax from this date */
          bps: number;
          /**
           * Format: date
           * @description YYYY-MM-DD: the rate applies to sales from 00:00 UTC of this date
           */
          effectiveAt: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              bps: number;
              createdAt: string;
              /** @description YYYY-MM-DD as written */
              effectiveAt: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000: the first instant it applies (00:00 UTC) */
              effectiveFrom: string;
              id: string;
              /** @description the row that stamps a sale made now (on machines without their own salesTaxRate) */
              inEffect: boolean;
              /** @description admin credentials only */
              operatorEmail?: string | null;
              /** @description bps / 100: the percent stamped on sales (orders’ taxRate) */
              ratePercent: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              url: string;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          description?: string;
          /** @description the event types sent to this endpoint */
          eventTypes: (
            | 'machine.online'
            | 'machine.offline'
            | 'aisle.low'
            | 'aisle.out'
            | 'aisle.fault'
            | 'dispense.failed'
            | 'order.paid'
            | 'order.refund_owed'
            | 'order.refund_failed'
            | 'command.acknowledged'
            | 'command.expired'
            | 'campaign.approved'
            | 'campaign.rejected'
            | 'dfy.checkpoint_raised'
            | 'agent.upgrade_blocked'
            | 'agent.upgrade_reverted'
            | 'alert.opened'
            | 'alert.cleared'
          )[];
          /**
           * Format: uri
           * @description http(s) URL the events are POSTed to; https only in production mode
           */
          url: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              /** @description the signing secret: shown only in this answer (create, rotate), never again */
              secret: string;
              url: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getWebhooksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              url: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  deleteWebhooksById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              url: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getWebhooksByIdDeliveries: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
        status?: 'pending' | 'delivered' | 'failed';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              page: number;
              records: {
                attempts: number;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                createdAt: string;
                /** @description the event id the body carries (`id`): the receiver de-duplicates on it */
                eventId: string;
                id: string;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
                lastAttemptAt: string | null;
                lastError: string | null;
                /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null unless pending */
                nextAttemptAt: string | null;
                /** @description the last attempt's HTTP status; null when no response came */
                responseCode: number | null;
                /**
                 * @description pending (not yet delivered, retrying), delivered (2xx), failed (24 h of retries ran out)
                 * @enum {string}
                 */
                status: 'pending' | 'delivered' | 'failed';
                type: string;
              }[];
              size: number;
              total: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postWebhooksByIdEnable: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              url: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postWebhooksByIdRotateSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              consecutiveFailures: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              description: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              disabledAt: string | null;
              /** @description false once the endpoint failed too many attempts in a row; POST …/enable turns it back on */
              enabled: boolean;
              eventTypes: string[];
              id: string;
              /** @description the signing secret: shown only in this answer (create, rotate), never again */
              secret: string;
              url: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postWebhooksByIdTest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              attempts: number;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              createdAt: string;
              /** @description the event id the body carries (`id`): the receiver de-duplicates on it */
              eventId: string;
              id: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              lastAttemptAt: string | null;
              lastError: string | null;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000; null unless pending */
              nextAttemptAt: string | null;
              /** @description the last attempt's HTTP status; null when no response came */
              responseCode: number | null;
              /**
               * @description pending (not yet delivered, retrying), delivered (2xx), failed (24 h of retries ran out)
               * @enum {string}
               */
              status: 'pending' | 'delivered' | 'failed';
              type: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postApkApkUp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          apkVersion?: string;
          equipmentNo?: string;
          machineNo?: string;
          serialNumber?: string;
          version?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              agentVersion: string | null;
              apkVersion: string | null;
              machineCode: string;
              platform: string | null;
              vmcVersion: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postApkCreateOrder: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisleNo: number;
          cardBrand?: string;
          cardLast4?: string;
          equipmentNo?: string;
          machineNo?: string;
          /** @enum {string} */
          payMethod?: 'card' | 'wallet' | 'cash';
          /** @default 1 */
          quantity?: number;
          requestRef?: string;
          serialNumber?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              amount: number;
              amountCents: number;
              machineCode: string;
              orderNumber: string;
              payStatus: string;
              quantity: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getApkGetAd: {
    parameters: {
      query?: {
        equipmentNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              entries: {
                campaignId?: string;
                endTime: string;
                head: string;
                id: string;
                mediaType?: string;
                /** @enum {string} */
                source?: 'direct-sold' | 'programmatic' | 'house';
                startTime: string;
                type: string;
                url: string;
              }[];
              machineCode: string;
              slotSeconds: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postApkGetEquipment: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          apkVersion?: string;
          equipmentNo?: string;
          machineNo?: string;
          serialNumber?: string;
          vmcVersion?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              claimed: boolean;
              config: {
                adminPin: string;
                /** @enum {string} */
                adminPinSource: 'operator' | 'derived';
                columnsPerRow: number;
                /** @enum {string} */
                dispatchMode: 'both' | 'kiosk_led' | 'remote_led';
                features: {
                  ambientAudio: boolean;
                  appAnalytics: boolean;
                  arcadePrintables: boolean;
                  autoRescue: boolean;
                  cameraLive: boolean;
                  cardTapForceTile: boolean;
                  cardTapStorefront: boolean;
                  deviceLogs: boolean;
                  dropSound: boolean;
                  factoryMode: boolean;
                  figurines: boolean;
                  htmlStorefront: boolean;
                  merchOnDemand: boolean;
                  photobooth: boolean;
                  remoteScreen: boolean;
                  testMode: boolean;
                  visionWatch: boolean;
                  voiceShopper: boolean;
                  walkupAlerts: boolean;
                  walkupSensor: boolean;
                };
                heartbeatInterval: number;
                kioskUiUrl: string;
                machineCode: string;
                /** @enum {string} */
                module: 'SH_YAxis' | 'SH';
                pollInterval: number;
                rows: number;
                serviceCode?: string | null;
              };
              goods: {
                aisles: {
                  aisleNo: number;
                  faulted: boolean;
                  maxStock: number;
                  name: string | null;
                  price: number;
                  priceCents: number;
                  sellable: boolean;
                  sku: string | null;
                  stock: number;
                }[];
                currency: string | null;
                machineCode: string;
              };
              machineCode: string;
              name: string;
              provisioned: boolean;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postApkSaveAdRecord: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json':
          | {
              equipmentNo?: string;
              machineNo?: string;
              records: {
                campaignId?: string;
                durationMs?: number;
                id: string;
                playedAt?: string | number;
                /** @enum {string} */
                source?: 'direct-sold' | 'programmatic' | 'house';
              }[];
              serialNumber?: string;
            }
          | {
              campaignId?: string;
              durationMs?: number;
              equipmentNo?: string;
              id: string;
              machineNo?: string;
              playedAt?: string | number;
              serialNumber?: string;
              /** @enum {string} */
              source?: 'direct-sold' | 'programmatic' | 'house';
            };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              accepted: number;
              duplicates: number;
              unattributed: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postApkValidVmcVersion: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          equipmentNo?: string;
          machineNo?: string;
          serialNumber?: string;
          version?: string;
          vmcVersion?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              agentVersion: string | null;
              apkVersion: string | null;
              machineCode: string;
              platform: string | null;
              vmcVersion: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetCheckouts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisleNo: number;
          equipmentNo?: string;
        };
      };
    };
    responses: {
      /** @description Created, in the `{code: 200, message: "success", data}` envelope */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              amount: number;
              amountCents: number;
              checkoutId: string;
              commandId: string | null;
              createdAt: string;
              currency: string;
              detail: string | null;
              expiresAt: string;
              name: string | null;
              orderNumber: string | null;
              paidAt: string | null;
              payUrl: string;
              refund: ('owed' | 'issued') | null;
              refundState?: {
                amountCents: number;
                at: string | null;
                attempts: number;
                reason: string | null;
                refundId: string | null;
                /** @enum {string} */
                status: 'owed' | 'issued' | 'failed';
              } | null;
              secondsLeft: number;
              /** @enum {string} */
              status: 'awaiting_payment' | 'paid' | 'vending' | 'vended' | 'failed' | 'expired' | 'cancelled';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      502: components['responses']['Upstream'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetCheckoutsByCheckoutId: {
    parameters: {
      query?: {
        equipmentNo?: string;
      };
      header?: never;
      path: {
        checkoutId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              amount: number;
              amountCents: number;
              checkoutId: string;
              commandId: string | null;
              createdAt: string;
              currency: string;
              detail: string | null;
              expiresAt: string;
              name: string | null;
              orderNumber: string | null;
              paidAt: string | null;
              payUrl: string;
              refund: ('owed' | 'issued') | null;
              refundState?: {
                amountCents: number;
                at: string | null;
                attempts: number;
                reason: string | null;
                refundId: string | null;
                /** @enum {string} */
                status: 'owed' | 'issued' | 'failed';
              } | null;
              secondsLeft: number;
              /** @enum {string} */
              status: 'awaiting_payment' | 'paid' | 'vending' | 'vended' | 'failed' | 'expired' | 'cancelled';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetCheckoutsByCheckoutIdCancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        checkoutId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          equipmentNo?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              amount: number;
              amountCents: number;
              checkoutId: string;
              commandId: string | null;
              createdAt: string;
              currency: string;
              detail: string | null;
              expiresAt: string;
              name: string | null;
              orderNumber: string | null;
              paidAt: string | null;
              payUrl: string;
              refund: ('owed' | 'issued') | null;
              refundState?: {
                amountCents: number;
                at: string | null;
                attempts: number;
                reason: string | null;
                refundId: string | null;
                /** @enum {string} */
                status: 'owed' | 'issued' | 'failed';
              } | null;
              secondsLeft: number;
              /** @enum {string} */
              status: 'awaiting_payment' | 'paid' | 'vending' | 'vended' | 'failed' | 'expired' | 'cancelled';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetConfig: {
    parameters: {
      query?: {
        equipmentNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              adminPin: string;
              /** @enum {string} */
              adminPinSource: 'operator' | 'derived';
              columnsPerRow: number;
              /** @enum {string} */
              dispatchMode: 'both' | 'kiosk_led' | 'remote_led';
              features: {
                ambientAudio: boolean;
                appAnalytics: boolean;
                arcadePrintables: boolean;
                autoRescue: boolean;
                cameraLive: boolean;
                cardTapForceTile: boolean;
                cardTapStorefront: boolean;
                deviceLogs: boolean;
                dropSound: boolean;
                factoryMode: boolean;
                figurines: boolean;
                htmlStorefront: boolean;
                merchOnDemand: boolean;
                photobooth: boolean;
                remoteScreen: boolean;
                testMode: boolean;
                visionWatch: boolean;
                voiceShopper: boolean;
                walkupAlerts: boolean;
                walkupSensor: boolean;
              };
              heartbeatInterval: number;
              kioskUiUrl: string;
              machineCode: string;
              /** @enum {string} */
              module: 'SH_YAxis' | 'SH';
              pollInterval: number;
              rows: number;
              serviceCode?: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetCreateOrder: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisleNo: number;
          cardBrand?: string;
          cardLast4?: string;
          equipmentNo?: string;
          /** @enum {string} */
          payMethod?: 'card' | 'wallet' | 'cash';
          /** @default 1 */
          quantity?: number;
          requestRef?: string;
          serialNumber?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisleNo: number;
              amount: number;
              amountCents: number;
              machineCode: string;
              orderNumber: string;
              payStatus: string;
              quantity: number;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetEnrol: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          deviceId?: string;
          equipmentNo?: string;
          serialNumber?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              deviceKey: string;
              keyId: string;
              machineCode: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      428: components['responses']['PreconditionRequired'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetGoods: {
    parameters: {
      query?: {
        equipmentNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              aisles: {
                aisleNo: number;
                faulted: boolean;
                /** @default null */
                imageUrl: string | null;
                maxStock: number;
                name: string | null;
                price: number;
                priceCents: number;
                sellable: boolean;
                sku: string | null;
                stock: number;
              }[];
              currency: string | null;
              machineCode: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetHeartbeat: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          agentVersion?: string;
          arch?: string;
          blocked?: {
            count: number;
            minFrom: string;
            seconds: number;
            version: string;
          } | null;
          capabilities?: string[];
          deferring?: {
            count: number;
            reason: string;
            seconds: number;
            version: string;
          } | null;
          equipmentNo?: string;
          reverted?: {
            /** Format: date-time */
            at: string;
            from: string;
            reason: string;
            version: string;
          } | null;
          serialNumber?: string;
          serviceCode?: {
            attempts: {
              /** @enum {string} */
              action: 'motor-test' | 'enrolment-reset' | 'log-export' | 'network' | 'unlock' | 'screen';
              at: string;
              id: number;
              /** @enum {string} */
              result: 'ok' | 'wrong' | 'locked' | 'no-code';
              /** @enum {string} */
              source: 'cli' | 'control';
            }[];
            dropped: number;
            failures: number;
            lockedUntil: string | null;
          };
          vmcVersion?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              serverTime: string;
              /** @constant */
              status: 'online';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetPending: {
    parameters: {
      query?: {
        equipmentNo?: string;
        wait?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              commands: {
                aisleNo: number;
                commandId: string;
                createdAt: string;
                externalRef: string | null;
                reason: string;
              }[];
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetPrizeEvents: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          equipmentNo?: string;
          events: {
            aisleNo?: number;
            at: number | string;
            eventId: string;
            /** @enum {string} */
            kind: 'scan' | 'entry' | 'play' | 'win';
            /** @enum {string} */
            mechanic?: 'spinToWin' | 'scratchCard' | 'loyaltyStamp';
            prizeValue?: number;
          }[];
          serialNumber?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              accepted: number;
              duplicates: number;
              refused: {
                eventId: string;
                /** @enum {string} */
                reason: 'mechanic_disabled' | 'over_max_prize_value' | 'over_daily_cap' | 'over_budget' | 'clock_skew';
              }[];
              state: {
                budgetLeft: number | null;
                mechanics: {
                  loyaltyStamp: {
                    enabled: boolean;
                    maxPrizeValue: number | null;
                    maxWinsPerDay: number | null;
                    winsLeftToday: number | null;
                  };
                  scratchCard: {
                    enabled: boolean;
                    maxPrizeValue: number | null;
                    maxWinsPerDay: number | null;
                    winsLeftToday: number | null;
                  };
                  spinToWin: {
                    enabled: boolean;
                    maxPrizeValue: number | null;
                    maxWinsPerDay: number | null;
                    winsLeftToday: number | null;
                  };
                };
                period: string;
              };
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetPrizeMechanics: {
    parameters: {
      query?: {
        equipmentNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              budgetLeft: number | null;
              mechanics: {
                loyaltyStamp: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxWinsPerDay: number | null;
                  winsLeftToday: number | null;
                };
                scratchCard: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxWinsPerDay: number | null;
                  winsLeftToday: number | null;
                };
                spinToWin: {
                  enabled: boolean;
                  maxPrizeValue: number | null;
                  maxWinsPerDay: number | null;
                  winsLeftToday: number | null;
                };
              };
              period: string;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetRegister: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          agentVersion?: string;
          arch?: string;
          capabilities?: string[];
          deviceId?: string;
          equipmentNo?: string;
          serialNumber?: string;
          vmcVersion?: string;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              adminPin: string;
              /** @enum {string} */
              adminPinSource: 'operator' | 'derived';
              columnsPerRow: number;
              /** @enum {string} */
              dispatchMode: 'both' | 'kiosk_led' | 'remote_led';
              features: {
                ambientAudio: boolean;
                appAnalytics: boolean;
                arcadePrintables: boolean;
                autoRescue: boolean;
                cameraLive: boolean;
                cardTapForceTile: boolean;
                cardTapStorefront: boolean;
                deviceLogs: boolean;
                dropSound: boolean;
                factoryMode: boolean;
                figurines: boolean;
                htmlStorefront: boolean;
                merchOnDemand: boolean;
                photobooth: boolean;
                remoteScreen: boolean;
                testMode: boolean;
                visionWatch: boolean;
                voiceShopper: boolean;
                walkupAlerts: boolean;
                walkupSensor: boolean;
              };
              heartbeatInterval: number;
              kioskUiUrl: string;
              machineCode: string;
              /** @enum {string} */
              module: 'SH_YAxis' | 'SH';
              pollInterval: number;
              rows: number;
              serviceCode?: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postCabinetReport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          aisleNo: number;
          commandId?: string;
          /** @default  */
          detail?: string;
          dispenseId: string;
          equipmentNo?: string;
          orderNumber?: string;
          outcome: string;
          serialNumber?: string;
          success: boolean;
        };
      };
    };
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              commandId: string | null;
              dispenseId: string;
              duplicate: boolean;
              /** @enum {string} */
              kind: 'command' | 'order' | 'local';
              orderNumber: string | null;
              receivedAt: string;
              status: string | null;
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getCabinetUpgrade: {
    parameters: {
      query?: {
        agentVersion?: string;
        arch?: string;
        equipmentNo?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              allowDowngrade: boolean;
              /** @enum {string} */
              arch?: 'x64' | 'arm64';
              artifacts?: {
                /** @enum {string} */
                arch: 'x64' | 'arm64';
                sha256: string;
                size: number;
                /**
                 * Format: uri
                 * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
                 */
                url: string;
              }[];
              isFinalStep: boolean;
              migration: boolean;
              minFrom: string | null;
              sequence: number;
              sha256: string;
              signature: string;
              /** @constant */
              signatureAlg: 'ed25519';
              size: number;
              target: string;
              /**
               * Format: uri
               * @description A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment
               */
              url: string;
              version: string;
            } | null;
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['DeviceUnauthorized'];
      403: components['responses']['DeviceForbidden'];
      404: components['responses']['NotFound'];
      410: components['responses']['Gone'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @enum {string} */
              db: 'ok' | 'error';
              /** @enum {string} */
              redis: 'ok' | 'error' | 'disabled';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      /** @description The service cannot answer now: its store is unreachable, busy or full, or this replica is draining. Nothing of the request was written; retry after the given seconds (docs/decisions/outages.md). */
      503: {
        headers: {
          /**
           * @description Seconds to wait before retrying
           * @example 2
           */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 503;
            data: {
              /** @enum {string} */
              db: 'ok' | 'error';
              /** @enum {string} */
              redis: 'ok' | 'error' | 'disabled';
            };
            message: string;
          };
        };
      };
    };
  };
  getMediaByFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/jpeg': string;
          'image/png': string;
          'image/webp': string;
          'video/mp4': string;
        };
      };
      400: components['responses']['BadRequest'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getMetrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  postOauthToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/x-www-form-urlencoded': {
          /** @description Omit when authenticating with HTTP Basic */
          client_id?: string;
          /** @description Omit when authenticating with HTTP Basic */
          client_secret?: string;
          /** @constant */
          grant_type: 'client_credentials';
          /** @description Space-separated; may only narrow the client's scopes */
          scope?: string;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            access_token: string;
            expires_in: number;
            /** @description Space-separated */
            scope: string;
            /** @constant */
            token_type: 'Bearer';
          };
        };
      };
      /** @description RFC 6749 §5.2 `invalid_request`, `invalid_grant`, `unsupported_grant_type` or `invalid_scope`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_request",
           *       "error_description": "Malformed request body"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
      /** @description RFC 6749 §5.2 `invalid_client`: unknown client or wrong secret. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_client",
           *       "error_description": "Client authentication failed"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
      /** @description The body is larger than the parser accepts: JSON bodies up to 1 MB, form bodies up to 64 kB (the payment webhook: 64 kB). */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_request",
           *       "error_description": "Request body too large"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
      /** @description The body has a charset other than UTF-8 or an unsupported Content-Encoding. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_request",
           *       "error_description": "Malformed request body"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
      /** @description Too many attempts for this client. */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_request",
           *       "error_description": "Too many requests"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
      /** @description RFC 6749 §5.2 error */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "error": "invalid_request",
           *       "error_description": "Malformed request body"
           *     }
           */
          'application/json': {
            error: string;
            error_description?: string;
          };
        };
      };
    };
  };
  getReady: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: {
              /** @enum {string} */
              db: 'ok' | 'error' | 'unchecked';
              /**
               * @description draining: shutdown has begun, send no new work here
               * @enum {string}
               */
              status: 'ready' | 'draining' | 'unavailable';
            };
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      /** @description The service cannot answer now: its store is unreachable, busy or full, or this replica is draining. Nothing of the request was written; retry after the given seconds (docs/decisions/outages.md). */
      503: {
        headers: {
          /**
           * @description Seconds to wait before retrying
           * @example 2
           */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 503;
            data: {
              /** @enum {string} */
              db: 'ok' | 'error' | 'unchecked';
              /**
               * @description draining: shutdown has begun, send no new work here
               * @enum {string}
               */
              status: 'ready' | 'draining' | 'unavailable';
            };
            message: string;
          };
        };
      };
    };
  };
  getSandboxAudit: {
    parameters: {
      query?: {
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            /** @description Newest first; the total number of records is in the X-Total-Count header */
            data: {
              action: string;
              /** @description The credential: API key id, OAuth client id, session id or JWT subject */
              keyId: string | null;
              resource: string;
              /** @description YYYY-MM-DDTHH:MM:SS.mmm+0000 */
              timestamp: string;
              /** @description The operator */
              userId: string | null;
            }[];
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getSandboxDispenseDecision: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            description: string;
            enabled: boolean;
            errors: number;
            followerSkips: number;
            graceSeconds?: number;
            intervalSeconds: number;
            lastError: string | null;
            lastSweepAt: string | null;
            lastTickAt: string | null;
            leader: boolean;
            /** @enum {string} */
            lease: 'in-process' | 'postgres' | 'redis';
            name: string;
            pod: string;
            resolved: number;
            running: boolean;
            sweeps: number;
            ticks: number;
            timeoutSeconds?: number;
            workInstalled: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getSandboxPersistence: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': unknown;
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getSandboxReadiness: {
    parameters: {
      query?: {
        format?: 'json' | 'html';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: unknown;
            /** @constant */
            message: 'success';
          };
          'text/html': string;
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getSandboxRefundSweep: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            description: string;
            enabled: boolean;
            errors: number;
            followerSkips: number;
            graceSeconds?: number;
            intervalSeconds: number;
            lastError: string | null;
            lastSweepAt: string | null;
            lastTickAt: string | null;
            leader: boolean;
            /** @enum {string} */
            lease: 'in-process' | 'postgres' | 'redis';
            name: string;
            pod: string;
            resolved: number;
            running: boolean;
            sweeps: number;
            ticks: number;
            timeoutSeconds?: number;
            workInstalled: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  postSandboxReset: {
    parameters: {
      query?: {
        wipeMoney?: '0' | '1' | 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            code: 200;
            data: unknown;
            /** @constant */
            message: 'success';
          };
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      403: components['responses']['AdminRequired'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      429: components['responses']['RateLimited'];
      503: components['responses']['Unavailable'];
    };
  };
  getSandboxRolloutSweep: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            description: string;
            enabled: boolean;
            errors: number;
            followerSkips: number;
            graceSeconds?: number;
            intervalSeconds: number;
            lastError: string | null;
            lastSweepAt: string | null;
            lastTickAt: string | null;
            leader: boolean;
            /** @enum {string} */
            lease: 'in-process' | 'postgres' | 'redis';
            name: string;
            pod: string;
            resolved: number;
            running: boolean;
            sweeps: number;
            ticks: number;
            timeoutSeconds?: number;
            workInstalled: boolean;
          } & {
            [key: string]: unknown;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      503: components['responses']['Unavailable'];
    };
  };
  getSspMockCreativeByFile: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success, in the `{code: 200, message: "success", data}` envelope */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      400: components['responses']['BadRequest'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Creative not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  postSspMockGetAdJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          api_key: string & (unknown & unknown);
          device_attribute?: {
            name: string & (unknown & unknown);
            value: string;
          }[];
          device_id: string & (unknown & unknown);
          direct_connection?: boolean;
          display_area: {
            allow_audio?: boolean;
            height: number;
            id: string & (unknown & unknown);
            max_duration?: number;
            min_duration?: number;
            supported_media: (string & (unknown & unknown))[];
            width: number;
          }[];
          display_time?: number;
          latitude?: number;
          longitude?: number;
          network_id: string & (unknown & unknown);
          number_of_screens?: number;
          venue_id?: string & (unknown & unknown);
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            advertisement: {
              advertiser: string;
              asset_url: string;
              creative_id: string;
              display_area_id: string;
              height: number;
              lease_expiry: number;
              lease_id: string;
              length_in_milliseconds: number;
              length_in_seconds: number;
              mime_type: string;
              net_cpm: number;
              proof_of_play_url: string;
              width: number;
            }[];
          };
        };
      };
      400: components['responses']['BadRequest'];
      /** @description Missing or invalid credentials (spec 1 §7). */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 401,
           *       "message": "Invalid API key: unknown network_id or api_key",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 401;
            data: null;
            /** @description Starts with 'Invalid API key' */
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getSspMockPopByLeaseId: {
    parameters: {
      query?: {
        display_time?: number;
      };
      header?: never;
      path: {
        leaseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            asset_url: string;
            device_id: string;
            expires_at: string;
            issued_at: string;
            lease_id: string;
            net_cpm: number;
            popped_at: string;
            venue_id: string | null;
          };
        };
      };
      400: components['responses']['BadRequest'];
      /** @description The resource is missing or owned by another operator (spec 1 §7). */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 404,
           *       "message": "Lease not found",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 404;
            data: null;
            message: string;
          };
        };
      };
      /** @description The request conflicts with the current state (spec 1 §7). */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 409,
           *       "message": "Lease already popped at 2026-11-20T12:00:00.000+0000",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 409;
            data: null;
            message: string;
          };
        };
      };
      /** @description The resource existed and is gone for good (a retired credential, a superseded offer). */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "code": 410,
           *       "message": "Lease expired at 2026-11-20T13:00:00.000+0000",
           *       "data": null
           *     }
           */
          'application/json': {
            /** @constant */
            code: 410;
            data: null;
            message: string;
          };
        };
      };
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
  getSspMockReceipts: {
    parameters: {
      query?: {
        device_id?: string;
        page?: number;
        size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            page: number;
            receipts: {
              asset_url: string;
              device_id: string;
              expires_at: string;
              issued_at: string;
              lease_id: string;
              net_cpm: number;
              popped_at: string;
              venue_id: string | null;
            }[];
            size: number;
            total: number;
          };
        };
      };
      400: components['responses']['BadRequest'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedEncoding'];
      422: components['responses']['Validation'];
      503: components['responses']['Unavailable'];
    };
  };
}
