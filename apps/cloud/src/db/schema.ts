import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Row types of every table. Booleans are integers 0/1 and times epoch milliseconds on both dialects. */
export interface OperatorsTable {
  id: string;
  email: string;
  name: string;
  admin: number;
  password_hash: string | null;
  mfa_secret_enc: string | null;
  mfa_enabled: number;
  currency: string | null;
  merchant_account: string;
  marketplace_opt_in: number;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  operator_id: string;
  name: string;
  secret_hash: string;
  scopes: string;
  rate_limit: number | null;
  plant: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface OAuthClientsTable {
  id: string;
  operator_id: string;
  name: string;
  secret_hash: string;
  scopes: string;
  rate_limit: number | null;
  created_at: number;
  revoked_at: number | null;
}

export interface AccessTokensTable {
  token_hash: string;
  operator_id: string;
  kind: 'oauth' | 'session' | 'access';
  credential_id: string;
  scopes: string;
  created_at: number;
  expires_at: number;
}

export interface MfaTicketsTable {
  ticket_hash: string;
  operator_id: string;
  auth_method: string;
  pending_secret_enc: string | null;
  attempts: Generated<number>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface RecoveryCodesTable {
  id: string;
  operator_id: string;
  code_hash: string;
  used_at: number | null;
}

export interface TotpUsesTable {
  operator_id: string;
  counter: number;
}

export interface AuditLogTable {
  id: string;
  key_id: string | null;
  user_id: string | null;
  action: string;
  resource: string;
  timestamp: number;
}

export interface VenuesTable {
  id: string;
  operator_id: string;
  name: string;
  address: string | null;
  rev_share_bps: number;
  deployment_date: string | null;
  kiosk_machine_no: string | null;
  created_at: number;
}

export interface MachinesTable {
  id: string;
  machine_no: string;
  operator_id: string | null;
  name: string;
  status: Generated<string>;
  last_seen: number | null;
  location: Generated<string>;
  lat: number | null;
  lng: number | null;
  address: string | null;
  place_id: string | null;
  geocode_status: string | null;
  geocode_detail: string | null;
  placement_version: Generated<number>;
  address_confirmed_at: number | null;
  installation_confirmed_at: number | null;
  notes: string | null;
  expire_date: number | null;
  rent_state: Generated<number>;
  time_zone: string | null;
  sales_tax_rate: number | null;
  venue_id: string | null;
  agent_version: string | null;
  /** The architecture the cabinet's agent reports (`process.arch`), null until one does (migration 0037). */
  agent_arch: string | null;
  vmc_version: string | null;
  apk_version: string | null;
  platform: string | null;
  screen_json: string | null;
  retired_at: number | null;
  claimed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface VenueMovesTable {
  id: string;
  machine_id: string;
  venue_id: string | null;
  moved_at: number;
  /** When host commission starts accruing for this attachment (0012); null on a detach and on older rows (read as `moved_at`). */
  accrues_from: number | null;
  /** `move`, `deploymentDate` or `firstSale` (0012); null on a detach and on older rows (read as `move`). */
  commission_rule: string | null;
  /** The move's place in the machine's history, 1, 2, … (0012); null on older rows. */
  seq: number | null;
}

export interface AislesTable {
  machine_id: string;
  aisle_no: number;
  current_stock: number;
  max_stock: number;
  alert_threshold: number;
  price_cents: number;
  sku: string | null;
  product_name: string | null;
  faulted: number;
  /** The product's picture: an https URL or a path on this service (migration 0040); null: none. */
  image_url: string | null;
}

export interface PaymentTerminalsTable {
  id: string;
  machine_id: string;
  operator_id: string | null;
  merchant_account: string;
  provider: string;
  bound_at: number;
}

export interface OrdersTable {
  order_number: string;
  machine_id: string;
  operator_id: string | null;
  aisle_no: number;
  quantity: number;
  pay_status: string;
  paid_cents: number;
  charged_cents: number;
  tax_rate: number | null;
  channel: string;
  pay_method: string;
  terminal_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  settlement_account: string | null;
  command_id: string | null;
  dispense_id: string | null;
  vended: number;
  /** The cashless provider's payment id (0002); null for cash and for orders no webhook has touched. */
  payment_ref: string | null;
  /** The cabinet's reference for the createOrder call that opened it (0009); null otherwise. */
  request_ref: string | null;
  created_at: number;
  updated_at: number;
}

/** FIFO cost layer: one per received purchase-order line (0002). */
export interface LotsTable {
  id: string;
  operator_id: string;
  sku: string;
  qty_received: number;
  qty_remaining: number;
  unit_cost_cents: number;
  received_at: number;
  purchase_order_ref: string | null;
  /** The purchase order whose line this layer is (0013); null for layers from before 0013. */
  purchase_order_id: string | null;
  /** The line's position in its purchase order, from 1 (0013): FIFO ties within one receipt. */
  line_no: Generated<number>;
}

/** A received purchase order (0013): its lines are `lots` rows; `po_ref` unique per operator. */
export interface PurchaseOrdersTable {
  id: string;
  operator_id: string;
  po_ref: string;
  vendor: string;
  /** YYYY-MM-DD as the operator wrote it. */
  ordered_on: string;
  total_cents: number;
  received_at: number;
}

/** What one sale drew from one FIFO layer (0013): the P&L's `fifoCogsCents` is the sum of `cost_cents`. */
export interface LotConsumptionsTable {
  id: string;
  operator_id: string;
  order_number: string;
  machine_id: string;
  lot_id: string;
  sku: string;
  qty: number;
  unit_cost_cents: number;
  /** qty × unit_cost_cents, exact. */
  cost_cents: number;
  consumed_at: number;
}

/** A referral, payroll or expense amount (0014); a correction is a reversing row, never an edit. */
export interface FinanceEntriesTable {
  id: string;
  operator_id: string;
  /** `referral`, `payroll` or `expense`. */
  kind: string;
  /** Whole cents; negative only on a reversing row. */
  amount_cents: number;
  /** YYYY-MM-DD, a UTC day. */
  occurred_on: string;
  machine_id: string | null;
  venue_id: string | null;
  memo: string | null;
  /** The entry this row reverses; null on an ordinary entry. */
  reverses_id: string | null;
  created_at: number;
}

/** A host statement recorded as paid (0014): frozen, one per venue and period. */
export interface HostPayoutsTable {
  id: string;
  operator_id: string;
  venue_id: string;
  /** YYYY-MM (domains/calendar/period.ts). */
  period: string;
  /** The venue's revShareBps when paid. */
  bps: number;
  total_cents: number;
  reference: string | null;
  paid_at: number;
}

/** One machine stay of a paid statement (0014); a row closes `machine_id`'s `period` to tax restatement. */
export interface HostPayoutLinesTable {
  id: string;
  payout_id: string;
  line_no: number;
  venue_id: string;
  machine_id: string;
  machine_no: string;
  period: string;
  commission_rule: string;
  commission_from: number;
  window_from: number;
  window_to: number;
  vends: number;
  net_cents: number;
  bps: number;
  share_cents: number;
}

/** An operator's sales-tax rate from an instant on (0015): stamps sales made from then, never reprices earlier ones. */
export interface TaxSchedulesTable {
  id: string;
  operator_id: string;
  /** Basis points of the tax-inclusive rule's percent: 888 = 8.88%. */
  bps: number;
  /** YYYY-MM-DD as the operator wrote it. */
  effective_on: string;
  /** UTC midnight of `effective_on`. */
  effective_at: number;
  created_at: number;
}

/** A finance period whose sales tax the operator marked remitted (0015), with what the server computed then. */
export interface TaxRemittancesTable {
  id: string;
  operator_id: string;
  /** YYYY-MM (domains/finance/period.ts). */
  period: string;
  reference: string | null;
  orders: number;
  sales_cents: number;
  tax_cents: number;
  net_cents: number;
  remitted_at: number;
}

/** A closed period a machine-rate change could not restate (0015). */
export interface TaxRestatementBlocksTable {
  id: string;
  /** The machine's operator at the time; null for an unclaimed machine. */
  operator_id: string | null;
  machine_id: string;
  period: string;
  /** `remitted` | `paid_out`. */
  reason: string;
  /** The machine rate the change asked for (percent); null: the rate was cleared. */
  requested_rate: number | null;
  /** The machine's rate before the change: the period's unstamped orders stay at it. */
  kept_rate: number | null;
  /** The machine's orders in the period, left as they were. */
  orders: number;
  created_at: number;
}

/** An accepted cashless-provider webhook event; the provider's event id is the key (0002). */
export interface PaymentEventsTable {
  id: string;
  type: string;
  payment_ref: string;
  order_number: string | null;
  payload: string;
  received_at: number;
}

/** A cloud-driven drop (0003): pending until the agent acks it or the dispense-decision loop expires it. */
export interface DispenseCommandsTable {
  id: string;
  machine_id: string;
  aisle_no: number;
  reason: string;
  external_ref: string | null;
  /** `pending`, `acknowledged`, `failed` or `expired` (docs/decisions/commands-and-loops.md). */
  status: string;
  outcome: string | null;
  detail: string | null;
  order_number: string | null;
  requested_by: string | null;
  created_at: number;
  acked_at: number | null;
  expired_at: number | null;
  updated_at: number;
}

/** The leader lease of the background loops when replicas share a PostgreSQL store (0003). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: number;
  acquired_at: number;
}

/** Per-machine identity and credential state of the cabinet gateway (0004). */
export interface DeviceIdentitiesTable {
  machine_id: string;
  device_id: string | null;
  /** `device-id` (trusted), `self-asserted` (a fleet-secret call said so), `unbound`. */
  binding: string;
  bound_at: number | null;
  /** `fleet-secret`, `enrolled` or `revoked`. */
  cred_state: string;
  rotation_due_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  reset_at: number | null;
  reset_by: string | null;
  reset_reason: string | null;
  updated_at: number;
}

/** One generation of a cabinet's device key (0004); the secret only as a salted SHA-256. */
export interface DeviceCredentialsTable {
  key_id: string;
  machine_id: string;
  generation: number;
  secret_hash: string;
  device_id: string | null;
  /** `candidate` (minted by a rotation, not yet used), `active`, `retired`, `revoked`. */
  state: string;
  created_at: number;
  activated_at: number | null;
  ended_at: number | null;
  ended_reason: string | null;
}

export interface EnrolmentArmsTable {
  id: string;
  machine_id: string;
  reason: string;
  device_id: string | null;
  armed_by_kind: string;
  armed_by_key: string | null;
  armed_by_operator: string | null;
  created_at: number;
  expires_at: number;
  closed_at: number | null;
  closed_reason: string | null;
}

export interface EnrolmentAttemptsTable {
  id: string;
  machine_no: string;
  at: number;
  outcome: string;
}

export interface IdentityConflictsTable {
  id: string;
  machine_id: string;
  binding: string;
  bound_device_id: string | null;
  presented_device_id: string;
  leg: string;
  at: number;
  resolved_at: number | null;
}

export interface CopySuspicionsTable {
  id: string;
  machine_id: string;
  key_id: string | null;
  leg: string;
  count: number;
  first_at: number;
  last_at: number;
}

export interface UnclaimableSerialsTable {
  serial: string;
  faults: string;
  leg: string;
  attempts: number;
  first_seen_at: number;
  last_seen_at: number;
}

export interface BuildRecordsTable {
  machine_no: string;
  plant: string;
  built_at: number;
  qa_passed_at: number | null;
  shipped_at: number | null;
  recorded_by_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface CabinetSettingsTable {
  machine_id: string;
  features_json: string;
  module: string | null;
  rows: number | null;
  columns_per_row: number | null;
  poll_interval: number | null;
  heartbeat_interval: number | null;
  dispatch_mode: string | null;
  kiosk_ui_url: string | null;
  admin_pin_enc: string | null;
  enrolment_mode: string | null;
  /** The service code's scrypt hash and when it was set (migration 0031). */
  service_code_hash: string | null;
  service_code_set_at: number | null;
  updated_at: number;
}

export interface GatewaySettingsTable {
  name: string;
  value: string;
  updated_by: string | null;
  updated_at: number;
}

export interface CabinetStatusTable {
  machine_id: string;
  capabilities_json: string | null;
  deferring_json: string | null;
  deferring_first_at: number | null;
  blocked_json: string | null;
  blocked_first_at: number | null;
  fleet_secret_seen_at: number | null;
  /** Fingerprint of the last heartbeat report written, and when (migration 0008). */
  report_fp: string | null;
  report_at: number | null;
  /** The last deferral / blocked block after it cleared: `{version, (minFrom,) firstAt, clearedAt}` (migration 0008). */
  deferring_kept_json: string | null;
  blocked_kept_json: string | null;
  /** The service-code lock as the cabinet last reported it: `{failures, lockedUntil}` (migration 0031). */
  service_lock_json: string | null;
  /** The last boot-guard revert the cabinet reported: `{version, from, reason, at}` (migration 0034). */
  reverted_json: string | null;
  updated_at: number;
}

/** Service-code attempts the cabinets reported (migration 0031). */
export interface ServiceCodeAttemptsTable {
  machine_id: string;
  attempt_id: number;
  at: number;
  action: string;
  result: string;
  source: string;
  received_at: number;
}

export interface DispenseReportsTable {
  dispense_id: string;
  machine_id: string;
  kind: string;
  command_id: string | null;
  order_number: string | null;
  aisle_no: number;
  success: number;
  outcome: string;
  detail: string;
  status: string | null;
  received_at: number;
}

export interface AdPlayRecordsTable {
  id: string;
  machine_id: string;
  entry_id: string;
  campaign_id: string | null;
  source: string;
  played_at: number;
  duration_ms: number | null;
  received_at: number;
  /** The programmatic fill this showing played (0010); null for direct-sold and house plays. */
  lease_id: string | null;
}

/** Media measured from its bytes (0010); the bytes live under DATA_DIR/media/<sha256>. */
export interface CreativesTable {
  id: string;
  operator_id: string;
  sha256: string;
  media_type: string;
  /** `image` or `video`. */
  kind: string;
  width: number;
  height: number;
  duration_ms: number | null;
  bytes: number;
  /** `upload` or `contentx` (studio). */
  source: string;
  contentx_ref: string | null;
  created_at: number;
}

/** A direct-sold campaign (0010). Money in integer cents; times epoch ms. */
export interface CampaignsTable {
  id: string;
  operator_id: string;
  name: string;
  sponsor_name: string;
  sponsor_type: string;
  /** `draft`, `active`, `paused`, `completed`. */
  status: string;
  target_machines_json: string | null;
  target_geo_json: string | null;
  weight: Generated<number>;
  flight_start: number | null;
  flight_end: number | null;
  /** `flat-monthly` (rate = per machine per month) or `cpm` (rate = per 1000 impressions). */
  pricing_model: string;
  rate_cents: number;
  creative_id: string | null;
  creative_source: string | null;
  contentx_ref: string | null;
  generations: Generated<number>;
  source_qr_id: string | null;
  source_machine_no: string | null;
  /** The self-serve purchase this campaign was drafted for (0011); null for campaigns an operator created. */
  ad_purchase_id: string | null;
  /** The buyer's contact `{name, email, phone}` of that purchase (0011). */
  buyer_contact_json: string | null;
  activated_at: number | null;
  /** When it was completed (revenue stops growing there). */
  ended_at: number | null;
  created_at: number;
  updated_at: number;
}

/** An operator's own attract-loop content (0010): `pending`, `approved`, `retired`. */
export interface ScreensaversTable {
  id: string;
  operator_id: string;
  name: string;
  creative_id: string;
  /** Machine codes it runs on; null = every machine of the operator. */
  machines_json: string | null;
  status: string;
  reviewed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A programmatic slot leased from a supply adapter for one machine (0010). */
export interface AdFillsTable {
  lease_id: string;
  machine_id: string;
  provider: string;
  asset_url: string;
  media_type: string;
  pop_url: string;
  /** Net CPM in thousandths of a currency unit (12.0 → 12000). */
  net_cpm_millis: number;
  expires_at: number;
  created_at: number;
  played_at: number | null;
  /** Set once, by the one proof-of-play report that fires the URL. */
  pop_claimed_at: number | null;
  pop_fired_at: number | null;
  pop_attempts: Generated<number>;
  pop_error: string | null;
}

/** The built-in mock SSP's own book of leases (0010): an outside party's state, kept here for the sandbox. */
export interface SspMockLeasesTable {
  lease_id: string;
  device_id: string;
  venue_id: string | null;
  asset_url: string;
  net_cpm_millis: number;
  issued_at: number;
  expires_at: number;
  popped_at: number | null;
}

/** A buyer's creative work before paying (0011): reached by a secret token stored hashed; used by one purchase at most. */
export interface AdCreativeDraftsTable {
  id: string;
  token_hash: string;
  /** Studio generations used (at most the catalog's generationsPerPurchase). */
  generations: Generated<number>;
  uploads: Generated<number>;
  /** The purchase that used this draft; null while unused. */
  purchase_id: string | null;
  created_at: number;
  updated_at: number;
}

/** Media a creative draft holds (0011): measured and stored by hash, like `creatives`, before any operator owns it. */
export interface AdDraftCreativesTable {
  id: string;
  draft_id: string;
  /** 1, 2, 3 … in the order the draft received them. */
  seq: number;
  sha256: string;
  media_type: string;
  kind: string;
  width: number;
  height: number;
  duration_ms: number | null;
  bytes: number;
  /** `upload` or `contentx`. */
  source: string;
  contentx_ref: string | null;
  created_at: number;
}

/** A self-serve ad purchase (0011). Money in integer cents; times epoch ms. */
export interface AdPurchasesTable {
  id: string;
  /** `awaiting_payment`, `pending_approval`, `approved`, `partially_approved`, `rejected`. */
  status: string;
  /** The status token's salted hash (crypto/secrets.ts); the token itself is never stored. */
  status_token_hash: string;
  buyer_name: string;
  buyer_email: string;
  buyer_phone: string | null;
  sponsor_name: string;
  sponsor_type: string;
  /** `{kind, machineNo?, zips?, city?}` as resolved. */
  reach_json: string;
  slots: number;
  months: number;
  flight_start: number;
  catalog_version: string;
  currency: string;
  rate_cents: number;
  multiplier_bps: number;
  /** rate × multiplier × slots: per machine per month. */
  monthly_rate_cents: number;
  machines: number;
  total_cents: number;
  /** The quote's per-operator split: `[{operatorId, machines, machineNos, amountCents}]`. */
  parts_json: string;
  media_sha256: string;
  media_type: string;
  media_kind: string;
  media_width: number;
  media_height: number;
  media_duration_ms: number | null;
  media_bytes: number;
  creative_source: string;
  contentx_ref: string | null;
  generations_used: number;
  draft_id: string;
  payment_processor: string;
  payment_intent_id: string;
  checkout_url: string;
  source_qr_id: string | null;
  source_machine_no: string | null;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
  /** The status token sealed under DATA_KEY (0043) for the receipt's link; null before 0043. Never the token in clear. */
  status_token_sealed: string | null;
  /** The receipt e-mail (0043): `queued` (with the payment), `sent`, `failed` (gave up); null: none owed. */
  receipt_status: string | null;
  receipt_attempts: Generated<number>;
  /** When the next receipt attempt is due; while one is in flight, when its claim lapses. */
  receipt_next_at: number | null;
  /** The last failure (never the address). */
  receipt_error: string | null;
  receipt_sent_at: number | null;
}

/** One operator's part of a paid purchase (0011): its draft campaign and its approval. */
export interface AdPurchaseLinesTable {
  id: string;
  purchase_id: string;
  operator_id: string;
  machines: number;
  machine_nos_json: string;
  amount_cents: number;
  /** The draft campaign made for this line; null once a rejection removed it. */
  campaign_id: string | null;
  /** `pending_approval`, `approved`, `rejected`. */
  status: string;
  reason: string | null;
  decided_at: number | null;
  /** The operator whose credential decided (an admin's, or the owner's). */
  decided_by: string | null;
  /** The line's amount once rejected (a manual refund); 0 otherwise. */
  refund_owed_cents: Generated<number>;
  created_at: number;
  /** The refund owed's state (0041): `owed`, `issued`, `failed`; null: none owed (or rejected before 0041: read as owed). */
  refund_status: string | null;
  /** The processor's refund id once issued. */
  refund_id: string | null;
  /** The processor's reason for the last failed attempt. */
  refund_failure: string | null;
  /** When the refund was issued or last failed. */
  refund_at: number | null;
  /** Failed attempts so far: the next attempt's idempotency key counts them. */
  refund_attempts: Generated<number>;
  /** How many times the buyer sent this line back for approval after a rejection (0043). */
  resubmissions: Generated<number>;
}

/** A payment-webhook event already processed (0011): its id makes a replay change nothing. */
export interface AdPaymentEventsTable {
  id: string;
  processor: string;
  type: string;
  intent_id: string;
  purchase_id: string | null;
  payload: string;
  received_at: number;
}

/** The built-in test processor's payment intents (0011): an outside party's state, kept here for the sandbox. */
export interface TestPaymentIntentsTable {
  id: string;
  purchase_id: string;
  amount_cents: number;
  currency: string;
  description: string;
  /** `requires_payment` or `succeeded`. */
  status: string;
  created_at: number;
  succeeded_at: number | null;
  delivered_at: number | null;
  /** HTTP status of the last webhook delivery; null when it failed to get an answer. */
  delivery_status: number | null;
  /** Where the intent's event is delivered (a path on this service); null: the ad payments webhook. */
  webhook_path: string | null;
  /** Where the buyer is sent after paying (0039; Stripe's success_url); null: the payment page says paid. */
  return_url: string | null;
}

/** The built-in test processor's refunds (0041), unique on the idempotency key. */
export interface TestRefundsTable {
  id: string;
  intent_id: string;
  amount_cents: number;
  currency: string;
  reason: string;
  idempotency_key: string;
  created_at: number;
}

/** A pay-by-phone checkout of the kiosk's screen (0039): one aisle at the server's price, at most one open per machine. */
export interface KioskCheckoutsTable {
  /** `chk_` + 32 random hex digits: the phone page's address carries it. */
  id: string;
  machine_id: string;
  operator_id: string | null;
  aisle_no: number;
  product_name: string | null;
  amount_cents: number;
  currency: string;
  processor: string;
  intent_id: string | null;
  /** The processor's page where the shopper pays (null until the intent exists). */
  checkout_url: string | null;
  /** The phone page the cabinet's QR shows (`/buy/{id}`). */
  pay_url: string;
  /** `awaiting_payment`, `paid`, `vending`, `vended`, `failed`, `expired` or `cancelled` (@vend/protocol CHECKOUT_STATUSES). */
  status: string;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  order_number: string | null;
  command_id: string | null;
  /** `owed`, `issued` or `failed` (0042: the processor refused; retried, then left to the operator); null: nothing to give back. */
  refund: string | null;
  /** Why it failed, in words a shopper may read. */
  detail: string | null;
  updated_at: number;
  /** The processor's refund (0042): issued, or failed at the processor after it was made. */
  refund_id: string | null;
  /** Why the last refund attempt failed (the processor's reason). */
  refund_failure: string | null;
  /** When the refund was issued, or its last attempt failed. */
  refund_at: number | null;
  /** Failed attempts so far: the next attempt's idempotency key counts them. */
  refund_attempts: Generated<number>;
}

/** Each processor event the kiosk checkout webhook received (0039), claimed once by its id. */
export interface KioskCheckoutEventsTable {
  id: string;
  processor: string;
  type: string;
  intent_id: string;
  checkout_id: string;
  payload: string;
  received_at: number;
}

/** A published agent release (0005): immutable once written; `version_key` is the sortable normalised version. */
export interface AgentReleasesTable {
  version: string;
  version_key: string;
  sha256: string;
  size: number;
  url: string;
  migration: number;
  min_from: string | null;
  signature: string;
  signature_alg: string;
  /** `[{arch, sha256, size, url}]` of a release signed in the v2 form; null for one x64 artifact (migration 0037). */
  artifacts_json: string | null;
  /** Publish order, 1, 2, 3 … */
  sequence: number;
  published_at: number;
  published_by: string | null;
  published_key: string | null;
}

/** The one fleet-wide rollout (0005): a single row with id 'fleet'. */
export interface AgentRolloutTable {
  id: string;
  target_version: string;
  /** `rolling`, `held` or `complete`. */
  phase: string;
  /** JSON array of machine codes. */
  canary_json: string;
  percent: number;
  allow_downgrade: number;
  note: string;
  hold_reason: string | null;
  held_at: number | null;
  held_by: string | null;
  set_by: string | null;
  created_at: number;
  updated_at: number;
}

/** A per-machine pin (0005): outranks the rollout in both directions. */
export interface AgentPinsTable {
  machine_id: string;
  version: string;
  reason: string;
  pinned_by: string | null;
  pinned_key: string | null;
  pinned_at: number;
}

/** A snapshot of the fleet-wide rollout's progress (0007), written by the rollout sweep on change. */
export interface RolloutProgressTable {
  id: string;
  /** The `agent_rollout` row measured ('fleet'). */
  rollout_id: string;
  target_version: string;
  /** `rolling`, `held` or `complete` when the snapshot was taken. */
  phase: string;
  taken_at: number;
  total: number;
  eligible: number;
  on_target: number;
  pinned: number;
  deferring: number;
  blocked: number;
  /** Machines offered nothing for their architecture (migration 0038; 0 in snapshots taken before it). */
  no_artifact: number;
}

/** The prize game of a machine: its monthly prize budget (0016). */
export interface PrizeSettingsTable {
  machine_id: string;
  /** null: no budget. */
  monthly_budget_cents: number | null;
  updated_at: number;
}

/** One prize mechanic of a machine: on/off and its caps, null for none (0016). */
export interface PrizeMechanicsTable {
  machine_id: string;
  mechanic: string;
  enabled: number;
  max_wins_per_day: number | null;
  max_prize_cents: number | null;
}

/** A scan, entry, play or win a cabinet reported, once per (machine, event_id), with its verdict (0016). */
export interface PrizeEventsTable {
  id: string;
  machine_id: string;
  event_id: string;
  kind: string;
  mechanic: string | null;
  at: number;
  aisle_no: number | null;
  /** An accepted win's prize cost, fixed when accepted; null otherwise. */
  prize_cents: number | null;
  /** null: accepted; else why it was refused. */
  refusal: string | null;
  received_at: number;
}

/** A crew: people who run machines together; `default_for` the email whose default crew it is (0018). */
export interface CrewsTable {
  id: string;
  name: string;
  /** The email of the operator account that created it. */
  created_by: string;
  default_for: string | null;
  created_at: number;
}

/** One member of a crew, by operator account email, with a role: owner, admin or member (0018). */
export interface CrewMembersTable {
  crew_id: string;
  email: string;
  role: string;
  joined_at: number;
}

/** An invitation to a crew; only a salted SHA-256 of its one-time token is kept (0018). */
export interface CrewInvitesTable {
  id: string;
  crew_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  /** pending, accepted, revoked or expired (a pending row past `expires_at` reads as expired). */
  state: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
}

/** A named set of an operator's machines and the scopes a person may use on them (0020). */
export interface AccessGroupsTable {
  id: string;
  operator_id: string;
  name: string;
  /** Space-separated, like a credential's scopes. */
  scopes: string;
  created_at: number;
  updated_at: number;
}

/** One machine of an access group (0020). */
export interface AccessGroupMachinesTable {
  group_id: string;
  machine_id: string;
}

/** The group a person (`username`: an account email) is given on an operator's fleet (0020). */
export interface AccessAssignmentsTable {
  operator_id: string;
  username: string;
  group_id: string;
  assigned_at: number;
}

/** A person's session on an operator's fleet; its bearer token is an `access_tokens` row of kind `access` (0020). */
export interface AccessSessionsTable {
  id: string;
  operator_id: string;
  username: string;
  created_at: number;
  expires_at: number;
}

/** One driver visit to one machine of a crew's fleet: planned, in_progress, done or cancelled (0019). */
export interface RestockRunsTable {
  id: string;
  crew_id: string;
  machine_id: string;
  machine_no: string;
  /** The machine's operator when the run was planned (the crew's fleet owner). */
  operator_id: string;
  status: string;
  notes: string | null;
  /** Emails of the people who planned, started, completed or cancelled it. */
  created_by: string;
  created_at: number;
  started_by: string | null;
  started_at: number | null;
  completed_by: string | null;
  completed_at: number | null;
  cancelled_by: string | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
}

/** One aisle of a run's pick list, frozen at planning; `filled` and `stock_after` null until done (0019). */
export interface RestockRunLinesTable {
  run_id: string;
  aisle_no: number;
  sku: string | null;
  product_name: string | null;
  stock_at_plan: number;
  par: number;
  pick: number;
  faulted: number;
  filled: number | null;
  stock_after: number | null;
}

export interface DfyDealsTable {
  id: string;
  operator_id: string;
  stage: string;
  state_json: string;
  seq: number;
  machine_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface DfyDealEventsTable {
  deal_id: string;
  seq: number;
  at: number;
  event_json: string;
}

export interface DfyCheckpointsTable {
  id: string;
  deal_id: string;
  operator_id: string;
  kind: string;
  resolved: number;
  detail: string | null;
  raised_by: string;
  raised_at: number;
  resolved_by: string | null;
  resolved_at: number | null;
}

export interface DfyWorkOrdersTable {
  id: string;
  deal_id: string;
  operator_id: string;
  type: string;
  state: string;
  assignee: string | null;
  scheduled_for: number | null;
  created_at: number;
  updated_at: number;
}

export interface DfyPaymentsTable {
  id: string;
  deal_id: string;
  operator_id: string;
  kind: string;
  amount_cents: number;
  created_at: number;
  refunded_at: number | null;
  /** Where the money was taken (0046); null: recorded without a processor (the sandbox, the pool's price). */
  processor: string | null;
  payment_intent_id: string | null;
  currency: string | null;
  /** A processor payment's refund: `owed` → `issued` | `failed`; null: nothing owed, or refunded without a processor. */
  refund_status: string | null;
  refund_id: string | null;
  refund_failure: string | null;
  refund_at: number | null;
  refund_attempts: Generated<number>;
}

/** A payment asked of the processor for a deal (0046): `awaiting_payment` → `paid` by its event. */
export interface DfyPaymentIntentsTable {
  id: string;
  deal_id: string;
  operator_id: string;
  /** `preorder` or `checkout`. */
  kind: string;
  amount_cents: number;
  currency: string;
  status: string;
  processor: string;
  payment_intent_id: string;
  checkout_url: string;
  event_id: string | null;
  created_at: number;
  paid_at: number | null;
}

export interface DfyPaymentEventsTable {
  /** The processor's event id: claimed once. */
  id: string;
  processor: string;
  type: string;
  intent_id: string;
  payment_id: string;
  payload: string;
  received_at: number;
}

export interface DfyPortfolioSettingsTable {
  operator_id: string;
  settings_json: string;
  updated_at: number;
}

export interface DfyNegotiationMandatesTable {
  deal_id: string;
  version: number;
  operator_id: string;
  vertical: string;
  mandate_json: string;
  created_at: number;
}

export interface DfyNegotiationsTable {
  deal_id: string;
  operator_id: string;
  vertical: string;
  status: string;
  counterparty: string;
  mandate_version: number;
  rounds: number;
  out_of_mandate_asks: number;
  outcome_json: string | null;
  created_at: number;
  updated_at: number;
}

export interface DfyNegotiationTurnsTable {
  deal_id: string;
  seq: number;
  operator_id: string;
  actor: string;
  channel: string;
  mandate_version: number;
  turn_json: string;
  at: number;
}

export type DfyNegotiationMandateRow = Selectable<DfyNegotiationMandatesTable>;
export type DfyNegotiationRow = Selectable<DfyNegotiationsTable>;
export type DfyNegotiationTurnRow = Selectable<DfyNegotiationTurnsTable>;

export interface OutreachDirectoryTable {
  id: string;
  operator_id: string;
  name: string;
  address: string | null;
  lat: number;
  lng: number;
  vertical: string;
  time_zone: string;
  email: string | null;
  phone: string | null;
  daily_visitors: number;
  created_at: number;
}

export interface OutreachDealsTable {
  deal_id: string;
  operator_id: string;
  venue_id: string;
  /** JSON array of channels. */
  channel_order: string;
  cursor: number;
  started_at: number | null;
  last_touch_at: number | null;
}

export interface OutreachMessagesTable {
  id: string;
  deal_id: string;
  operator_id: string;
  venue_id: string;
  channel: string;
  to_address: string;
  script_id: string;
  script_version: string;
  provider_ref: string;
  status: string;
  unsubscribe_hash: string | null;
  sent_at: number;
  status_at: number;
}

export interface OutreachOptOutsTable {
  operator_id: string;
  channel: string;
  address: string;
  source: string;
  created_at: number;
}

export type OutreachDirectoryRow = Selectable<OutreachDirectoryTable>;
export type OutreachDealRow = Selectable<OutreachDealsTable>;
export type OutreachMessageRow = Selectable<OutreachMessagesTable>;

export interface DfyModesTable {
  kind: string;
  subject_id: string;
  operator_id: string;
  toggles_json: string;
  updated_at: number;
}

export interface DfyConciergeEnrolmentsTable {
  id: string;
  operator_id: string;
  kind: string;
  subject_id: string;
  deal_id: string | null;
  machine_id: string | null;
  enrolled_at: number;
  ended_at: number | null;
}

export interface DfySupplierOrdersTable {
  id: string;
  operator_id: string;
  deal_id: string;
  machine_id: string;
  status: string;
  lines_json: string;
  estimated_cost_cents: number;
  actual_cost_cents: number | null;
  work_order_id: string;
  purchase_order_id: string | null;
  created_at: number;
  updated_at: number;
}

export type DfyDealRow = Selectable<DfyDealsTable>;
export type DfyConciergeEnrolmentRow = Selectable<DfyConciergeEnrolmentsTable>;
export type DfySupplierOrderRow = Selectable<DfySupplierOrdersTable>;

export interface DfyPoolsTable {
  operator_id: string;
  /** Capital awaiting allocation, integer cents. */
  balance_cents: number;
  invested_cents: number;
  machines_funded: number;
  /** The catalog tier an allocation funds (`pro` unless the operator chose another). */
  target_tier: string;
  created_at: number;
  updated_at: number;
}

export interface DfyPoolInvestmentsTable {
  id: string;
  operator_id: string;
  amount_cents: number;
  currency: string;
  /** `awaiting_payment` → `paid`. */
  status: string;
  processor: string;
  payment_intent_id: string;
  checkout_url: string;
  /** The processor event that paid it. */
  event_id: string | null;
  created_at: number;
  paid_at: number | null;
}

export interface DfyPoolAllocationsTable {
  id: string;
  operator_id: string;
  deal_id: string;
  /** The investment whose payment triggered it. */
  investment_id: string;
  tier: string;
  amount_cents: number;
  balance_after_cents: number;
  created_at: number;
  /** Cancelled before shipping: the price went back to the pool. */
  returned_at: number | null;
}

export interface DfyPoolEventsTable {
  /** The processor's event id: claimed once. */
  id: string;
  processor: string;
  type: string;
  intent_id: string;
  investment_id: string;
  payload: string;
  received_at: number;
}

export type DfyPoolRow = Selectable<DfyPoolsTable>;
export type DfyPoolInvestmentRow = Selectable<DfyPoolInvestmentsTable>;
export type DfyPoolAllocationRow = Selectable<DfyPoolAllocationsTable>;
export type DfyPoolEventRow = Selectable<DfyPoolEventsTable>;
export type DfyCheckpointRow = Selectable<DfyCheckpointsTable>;
export type DfyWorkOrderRow = Selectable<DfyWorkOrdersTable>;
export type DfyPaymentRow = Selectable<DfyPaymentsTable>;
export type DfyPaymentIntentRow = Selectable<DfyPaymentIntentsTable>;
export type DfyPaymentEventRow = Selectable<DfyPaymentEventsTable>;

export interface WebhookEndpointsTable {
  id: string;
  operator_id: string;
  url: string;
  /** Space-separated event types the endpoint subscribes to. */
  event_types: string;
  description: string | null;
  /** The signing secret, sealed with the DATA_KEY (Sealer): it is read back to sign each delivery. */
  secret_sealed: string;
  enabled: number;
  consecutive_failures: number;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookStreamsTable {
  operator_id: string;
  stream: string;
  seq: number;
}

export interface WebhookEventsTable {
  id: string;
  operator_id: string;
  type: string;
  stream: string;
  seq: number;
  machine_no: string | null;
  /** The exact JSON body every endpoint receives (signed byte for byte). */
  body: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  stream: string;
  seq: number;
  /** pending → delivered, or failed once its 24 h of retries ran out. */
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  response_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export interface MachinePresenceTable {
  machine_id: string;
  /** `online` or `offline`, as the presence sweep last concluded. */
  state: string;
  changed_at: number;
}

export interface AlertRulesTable {
  id: string;
  operator_id: string;
  name: string;
  /** Space-separated event types that raise an alert. */
  event_types: string;
  /** `fleet`, `machine` (scope_ref: machine number) or `group` (scope_ref: access group id). */
  scope: string;
  scope_ref: string | null;
  /** Quiet hours as minutes after local midnight in `time_zone`; both null: none. */
  quiet_start_min: number | null;
  quiet_end_min: number | null;
  time_zone: string;
  /** 1: alerts go to the operator's endpoints subscribed to alert.opened / alert.cleared. */
  webhook: number;
  /** Space-separated e-mail recipients ('' for none). */
  emails: string;
  created_at: number;
  updated_at: number;
}

export interface AlertsTable {
  id: string;
  operator_id: string;
  rule_id: string;
  /** What the alert is about, e.g. `machine.offline:SBX-1`; at most one open alert per (rule, condition). */
  condition: string;
  type: string;
  machine_no: string | null;
  /** `open`, `clearing` (cleared, held until it stays clear), `cleared` or `resolved` (closed by hand). */
  state: string;
  occurrences: number;
  data: string;
  opened_at: number;
  /** When the opening is to be notified (quiet hours push it); null once notified. */
  notify_at: number | null;
  notified_at: number | null;
  /** While `clearing`: when it becomes `cleared` unless the condition returns. */
  clear_at: number | null;
  cleared_at: number | null;
  updated_at: number;
}

export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertRow = Selectable<AlertsTable>;

export interface DB {
  machine_presence: MachinePresenceTable;
  alert_rules: AlertRulesTable;
  alerts: AlertsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_streams: WebhookStreamsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  dfy_deals: DfyDealsTable;
  dfy_deal_events: DfyDealEventsTable;
  dfy_checkpoints: DfyCheckpointsTable;
  dfy_work_orders: DfyWorkOrdersTable;
  dfy_payments: DfyPaymentsTable;
  dfy_payment_intents: DfyPaymentIntentsTable;
  dfy_payment_events: DfyPaymentEventsTable;
  dfy_portfolio_settings: DfyPortfolioSettingsTable;
  dfy_modes: DfyModesTable;
  dfy_concierge_enrolments: DfyConciergeEnrolmentsTable;
  dfy_supplier_orders: DfySupplierOrdersTable;
  dfy_pools: DfyPoolsTable;
  dfy_pool_investments: DfyPoolInvestmentsTable;
  dfy_pool_allocations: DfyPoolAllocationsTable;
  dfy_pool_events: DfyPoolEventsTable;
  dfy_negotiation_mandates: DfyNegotiationMandatesTable;
  dfy_negotiations: DfyNegotiationsTable;
  dfy_negotiation_turns: DfyNegotiationTurnsTable;

  outreach_directory: OutreachDirectoryTable;
  outreach_deals: OutreachDealsTable;
  outreach_messages: OutreachMessagesTable;
  outreach_opt_outs: OutreachOptOutsTable;
  access_groups: AccessGroupsTable;
  access_group_machines: AccessGroupMachinesTable;
  access_assignments: AccessAssignmentsTable;
  access_sessions: AccessSessionsTable;
  crews: CrewsTable;
  crew_members: CrewMembersTable;
  crew_invites: CrewInvitesTable;
  restock_runs: RestockRunsTable;
  restock_run_lines: RestockRunLinesTable;
  agent_releases: AgentReleasesTable;
  agent_rollout: AgentRolloutTable;
  agent_pins: AgentPinsTable;
  rollout_progress: RolloutProgressTable;
  operators: OperatorsTable;
  api_keys: ApiKeysTable;
  oauth_clients: OAuthClientsTable;
  access_tokens: AccessTokensTable;
  mfa_tickets: MfaTicketsTable;
  recovery_codes: RecoveryCodesTable;
  totp_uses: TotpUsesTable;
  audit_log: AuditLogTable;
  venues: VenuesTable;
  machines: MachinesTable;
  venue_moves: VenueMovesTable;
  aisles: AislesTable;
  payment_terminals: PaymentTerminalsTable;
  orders: OrdersTable;
  dispense_commands: DispenseCommandsTable;
  job_leases: JobLeasesTable;
  lots: LotsTable;
  purchase_orders: PurchaseOrdersTable;
  lot_consumptions: LotConsumptionsTable;
  finance_entries: FinanceEntriesTable;
  host_payouts: HostPayoutsTable;
  host_payout_lines: HostPayoutLinesTable;
  tax_schedules: TaxSchedulesTable;
  tax_remittances: TaxRemittancesTable;
  tax_restatement_blocks: TaxRestatementBlocksTable;
  payment_events: PaymentEventsTable;
  device_identities: DeviceIdentitiesTable;
  device_credentials: DeviceCredentialsTable;
  enrolment_arms: EnrolmentArmsTable;
  enrolment_attempts: EnrolmentAttemptsTable;
  identity_conflicts: IdentityConflictsTable;
  copy_suspicions: CopySuspicionsTable;
  unclaimable_serials: UnclaimableSerialsTable;
  build_records: BuildRecordsTable;
  cabinet_settings: CabinetSettingsTable;
  gateway_settings: GatewaySettingsTable;
  cabinet_status: CabinetStatusTable;
  service_code_attempts: ServiceCodeAttemptsTable;
  dispense_reports: DispenseReportsTable;
  ad_play_records: AdPlayRecordsTable;
  creatives: CreativesTable;
  campaigns: CampaignsTable;
  screensavers: ScreensaversTable;
  ad_fills: AdFillsTable;
  ssp_mock_leases: SspMockLeasesTable;
  ad_creative_drafts: AdCreativeDraftsTable;
  ad_draft_creatives: AdDraftCreativesTable;
  ad_purchases: AdPurchasesTable;
  ad_purchase_lines: AdPurchaseLinesTable;
  ad_payment_events: AdPaymentEventsTable;
  prize_settings: PrizeSettingsTable;
  prize_mechanics: PrizeMechanicsTable;
  prize_events: PrizeEventsTable;
  test_payment_intents: TestPaymentIntentsTable;
  test_refunds: TestRefundsTable;
  kiosk_checkouts: KioskCheckoutsTable;
  kiosk_checkout_events: KioskCheckoutEventsTable;
}

export type OperatorRow = Selectable<OperatorsTable>;
export type MachineRow = Selectable<MachinesTable>;
export type NewMachine = Insertable<MachinesTable>;
export type MachineUpdate = Updateable<MachinesTable>;
export type VenueRow = Selectable<VenuesTable>;
export type NewVenue = Insertable<VenuesTable>;
export type VenueUpdate = Updateable<VenuesTable>;
export type VenueMoveRow = Selectable<VenueMovesTable>;
export type AisleRow = Selectable<AislesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type LotRow = Selectable<LotsTable>;
export type PurchaseOrderRow = Selectable<PurchaseOrdersTable>;
export type LotConsumptionRow = Selectable<LotConsumptionsTable>;
export type FinanceEntryRow = Selectable<FinanceEntriesTable>;
export type HostPayoutRow = Selectable<HostPayoutsTable>;
export type HostPayoutLineRow = Selectable<HostPayoutLinesTable>;
export type TaxScheduleRow = Selectable<TaxSchedulesTable>;
export type TaxRemittanceRow = Selectable<TaxRemittancesTable>;
export type TaxRestatementBlockRow = Selectable<TaxRestatementBlocksTable>;
export type PaymentEventRow = Selectable<PaymentEventsTable>;
export type DispenseCommandRow = Selectable<DispenseCommandsTable>;
export type DeviceIdentityRow = Selectable<DeviceIdentitiesTable>;
export type DeviceCredentialRow = Selectable<DeviceCredentialsTable>;
export type AgentReleaseRow = Selectable<AgentReleasesTable>;
export type AgentRolloutRow = Selectable<AgentRolloutTable>;
export type AgentPinRow = Selectable<AgentPinsTable>;
export type RolloutProgressRow = Selectable<RolloutProgressTable>;
export type CreativeRow = Selectable<CreativesTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type ScreensaverRow = Selectable<ScreensaversTable>;
export type AdFillRow = Selectable<AdFillsTable>;
export type AdPlayRow = Selectable<AdPlayRecordsTable>;
export type AdCreativeDraftRow = Selectable<AdCreativeDraftsTable>;
export type AdDraftCreativeRow = Selectable<AdDraftCreativesTable>;
export type AdPurchaseRow = Selectable<AdPurchasesTable>;
export type AdPurchaseLineRow = Selectable<AdPurchaseLinesTable>;
export type AdPaymentEventRow = Selectable<AdPaymentEventsTable>;
export type TestPaymentIntentRow = Selectable<TestPaymentIntentsTable>;
export type TestRefundRow = Selectable<TestRefundsTable>;
export type KioskCheckoutRow = Selectable<KioskCheckoutsTable>;
export type KioskCheckoutEventRow = Selectable<KioskCheckoutEventsTable>;
export type PrizeEventRow = Selectable<PrizeEventsTable>;
export type PrizeMechanicRow = Selectable<PrizeMechanicsTable>;
export type CrewRow = Selectable<CrewsTable>;
export type AccessGroupRow = Selectable<AccessGroupsTable>;
export type CrewMemberRow = Selectable<CrewMembersTable>;
export type CrewInviteRow = Selectable<CrewInvitesTable>;
export type RestockRunRow = Selectable<RestockRunsTable>;
export type RestockRunLineRow = Selectable<RestockRunLinesTable>;
