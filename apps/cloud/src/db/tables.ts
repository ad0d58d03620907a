import type { DB } from './schema.ts';

/**
 * Every table a sandbox reset clears, children before parents. A new table joins this list in the
 * migration's change, or a reset leaves its rows pointing at machines that are gone.
 * The audit log is kept: it records the reset itself.
 */
export const RESET_ORDER: (keyof DB)[] = [
  'rollout_progress',
  'agent_pins',
  'agent_rollout',
  'agent_releases',
  'device_credentials',
  'enrolment_arms',
  'enrolment_attempts',
  'identity_conflicts',
  'copy_suspicions',
  'unclaimable_serials',
  'build_records',
  'cabinet_settings',
  'gateway_settings',
  'cabinet_status',
  'dispense_reports',
  'ad_play_records',
  'ad_fills',
  'ssp_mock_leases',
  'screensavers',
  'campaigns',
  'creatives',
  'device_identities',
  'dispense_commands',
  'payment_events',
  'orders',
  'payment_terminals',
  'aisles',
  'venue_moves',
  'machines',
  'venues',
  'recovery_codes',
  'mfa_tickets',
  'totp_uses',
  'access_tokens',
  'oauth_clients',
  'api_keys',
  'lots',
  'operators',
];
