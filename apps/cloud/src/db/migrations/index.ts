import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_inventory_payments.ts';
import * as m0003 from './0003_commands_jobs.ts';
import * as m0004 from './0004_gateway.ts';
import * as m0005 from './0005_releases.ts';
import * as m0006 from './0006_gateway_identity_changes.ts';
import * as m0007 from './0007_rollout_progress.ts';
import * as m0008 from './0008_cabinet_report_memory.ts';
import * as m0009 from './0009_order_request_ref.ts';
import * as m0010 from './0010_screen_ads.ts';
import * as m0011 from './0011_ad_purchases.ts';
import * as m0012 from './0012_venues.ts';
import * as m0013 from './0013_fifo.ts';
import * as m0014 from './0014_finance_ledger.ts';
import * as m0015 from './0015_tax.ts';
import * as m0016 from './0016_prizes.ts';
import * as m0017 from './0017_orders_by_operator_machine.ts';
import * as m0018 from './0018_crews.ts';
import * as m0019 from './0019_restock_runs.ts';
import * as m0020 from './0020_access_groups.ts';
import * as m0021 from './0021_dfy_deals.ts';
import * as m0022 from './0022_dfy_negotiations.ts';
import * as m0024 from './0024_outreach.ts';
import * as m0026 from './0026_webhooks.ts';
import * as m0027 from './0027_alerts.ts';
import * as m0029 from './0029_dfy_modes.ts';
import * as m0031 from './0031_service_codes.ts';
import * as m0033 from './0033_dfy_supplier_orders.ts';
import * as m0034 from './0034_cabinet_revert_report.ts';
import * as m0035 from './0035_dfy_pool.ts';
import * as m0037 from './0037_release_artifacts.ts';
import * as m0038 from './0038_rollout_progress_no_artifact.ts';
import * as m0039 from './0039_kiosk_checkouts.ts';
import * as m0040 from './0040_aisle_image_url.ts';
import * as m0041 from './0041_ad_refunds.ts';
import * as m0042 from './0042_kiosk_refunds.ts';
import * as m0043 from './0043_buyer_receipts.ts';
import * as m0046 from './0046_dfy_processor_payments.ts';

/** Every migration, in order. Names sort lexically; never rename or edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_inventory_payments': m0002,
  '0003_commands_jobs': m0003,
  '0004_gateway': m0004,
  '0005_releases': m0005,
  '0006_gateway_identity_changes': m0006,
  '0007_rollout_progress': m0007,
  '0008_cabinet_report_memory': m0008,
  '0009_order_request_ref': m0009,
  '0010_screen_ads': m0010,
  '0011_ad_purchases': m0011,
  '0012_venues': m0012,
  '0013_fifo': m0013,
  '0014_finance_ledger': m0014,
  '0015_tax': m0015,
  '0016_prizes': m0016,
  '0017_orders_by_operator_machine': m0017,
  '0018_crews': m0018,
  '0019_restock_runs': m0019,
  '0020_access_groups': m0020,
  '0021_dfy_deals': m0021,
  '0022_dfy_negotiations': m0022,
  '0024_outreach': m0024,
  '0026_webhooks': m0026,
  '0027_alerts': m0027,
  '0029_dfy_modes': m0029,
  '0031_service_codes': m0031,
  '0033_dfy_supplier_orders': m0033,
  '0034_cabinet_revert_report': m0034,
  '0035_dfy_pool': m0035,
  '0037_release_artifacts': m0037,
  '0038_rollout_progress_no_artifact': m0038,
  '0039_kiosk_checkouts': m0039,
  '0040_aisle_image_url': m0040,
  '0041_ad_refunds': m0041,
  '0042_kiosk_refunds': m0042,
  '0043_buyer_receipts': m0043,
  '0046_dfy_processor_payments': m0046,
};
