/** What each tag covers: the top-level `tags` of the document, in this order. */
export const TAGS: Record<string, string> = {
  auth: 'OAuth client-credentials tokens, sign-in with MFA, and who-am-I (spec 1 §4.2, §5).',
  accounts: 'Operator accounts, created by reseller or admin credentials (`accounts:admin`).',
  machines: 'Register, claim, list and edit machines; placement and geocoding; the one-screen operator view and QR codes (spec 1 §4.3).',
  inventory: 'Aisle stock, prices, fault flags and restocks (spec 1 §4.4).',
  orders: 'Sales history and summaries (spec 1 §4.5).',
  payments: 'Cashless payments: reads, terminals and the signed provider webhook (spec 1 §4.5, §6).',
  'remote dispense': 'Remote drops: fulfil a sale, enqueue, poll and acknowledge dispense commands (spec 1 §4.6).',
  'device credentials': 'Per-cabinet credentials: enrolment arms, rotation, revocation, identity resets and fleet views (spec 2).',
  factory: 'Factory builds, QA and sign-off, for factory keys (`machines:build`).',
  'mock SSP':
    'The sandbox’s built-in supply-side platform (spec 2 §4.2), standing in for an outside SSP in its own Vistar-style JSON: get_ad leases, the one-shot proof of play, receipts, creatives. Sandbox mode only.',
  'screen advertising':
    'Screen-ad campaigns, creatives, screensavers, proof of play, reports and the DOOH inventory export with the OpenOOH venue taxonomy (spec 1 §4.7).',
  finance: 'Host venues and when host commission accrues for each machine (spec 1 §2.9, §4.3 rule 6, §4.8).',
  crews: 'Crews of people who run machines together: members, roles (owner, admin, member) and e-mail invitations with one-time expiring tokens (spec 1 §4.9).',
  access:
    "Access groups (spec 1 §4.2): sets of an operator's machines and scopes given to people of its crews, who open fenced sessions on the fleet that see only those machines.",
  restock:
    "Restock runs (spec 1 §4.9): one driver visit to one machine of a crew's fleet, planned from par levels (planned → in_progress → done, or cancelled); completing puts the stock into the aisles once.",
  'done-for-you':
    'The done-for-you placement pipeline (spec 3): catalog, pre-orders, deals and their forward-only stages, the checkpoint inbox, the four confirm gates, checkout, install work orders, portfolio views and replay.',
  negotiation:
    "The negotiation of a done-for-you deal (spec 3 §2, §4, key rules 1–3): the versioned mandate, the confirmed start, the deterministic engine's turns against the venue (a seeded persona in the sandbox), advice, operator turns and the negotiation graphs.",
  'dfy outreach':
    'Done-for-you outreach (spec 3 §1, §4, key rule 8): the venue directory and scored shortlist, outreach start and preview over e-mail, text and voice (round-robin, calling window, caps, 24 h cadence, one versioned script library), the intro draft, signed provider callbacks and opt-outs.',
  webhooks:
    'Outbound webhooks (issue 20): endpoints subscribed to fleet events, signed like the inbound webhooks, delivered from a durable outbox with retries for 24 h; the deliveries log.',
  alerts:
    'Alert rules (issue 20): which fleet events raise an alert on which machines, quiet hours, webhook and e-mail delivery; one live alert per rule and condition until it clears.',
  meta: 'The live state machines, generated from the tables the API enforces.',
  pricing: 'The public price lists, versioned data in integer cents: self-serve screen ads and the operator subscription (spec 1 §2.10).',
  'ad marketplace':
    'The self-serve screen-ad marketplace (spec 1 §2.8, §4.7, §6): buyers (no key) quote, build a creative, buy and follow a purchase by its token; the signed payment webhook; operators approve or reject their part.',
  'agent releases': 'Signed agent releases, staged rollouts and per-machine pins (spec 2).',
  'cabinet gateway': 'What cabinets call (`/cabinet/*`): registration, enrolment, heartbeat, config, orders, reports, the command long poll (spec 2).',
  'family-A cabinet': 'The family-A cabinet protocol (`/apk/*`), kept for cabinets already in the field (spec 2).',
  sandbox: 'Health, readiness, the sandbox reset and audit log, and the background loops’ status (spec 1 §4.1).',
};
