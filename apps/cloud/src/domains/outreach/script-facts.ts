import { CATALOG } from '../dfy/deals/catalog.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import type { ScriptFacts } from './scripts.ts';

export const SENDER_NAME = 'Vend Placements';

/**
 * The only way a deal reaches a script: its venue's name and its machine, nothing else of it (not the
 * negotiation, not the operator's note), so the mandate cannot be rendered into a message.
 */
export function scriptFactsOf(deal: Pick<DealState, 'tier'>, venueName: string, senderName = SENDER_NAME): ScriptFacts {
  return { venueName, senderName, machine: CATALOG.find((c) => c.tier === deal.tier)?.name ?? 'smart kiosk', unsubscribeUrl: null };
}
