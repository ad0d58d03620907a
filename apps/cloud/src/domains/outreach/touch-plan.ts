import { createHmac } from 'node:crypto';
import type { OutreachDealRow } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Repos } from '../../repos.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import type { Channel, ChannelAdapter, RenderedMessage } from './channels/channel.ts';
import { FREQUENCY_CAP, ineligibility, type Ineligible } from './outreach.rules.ts';
import { scriptFactsOf } from './script-facts.ts';
import { renderScript, scriptKindFor } from './scripts.ts';

export const UNSUBSCRIBE_PATH = '/api/v1/dfy/outreach/unsubscribe';

/** What planning a touch reads besides the store: the configured channels, where links point, the unsubscribe key. */
export interface TouchPlanContext {
  channels: Record<Channel, ChannelAdapter | null>;
  baseUrl: string;
  tokenKey: string;
}

/**
 * What the next touch of a deal's outreach run would be on each channel of its rotation: the address, the
 * exact render from the script library, and why it cannot go now (if so). The step sends it; the preview shows it.
 */
export async function planTouch(repos: Repos, run: OutreachDealRow, deal: DealState, now: number, ctx: TouchPlanContext) {
  const venue = await repos.outreach.venue(run.venue_id);
  if (!venue) throw notFound('Deal');
  const order = JSON.parse(run.channel_order) as Channel[];
  const optOuts = await repos.outreach.optedOut(run.operator_id);
  const touches = deal.outreach?.touches ?? 0;
  const kind = scriptKindFor(touches);
  const token = unsubscribeToken(ctx.tokenKey, deal.id, touches + 1);
  const facts = { ...scriptFactsOf(deal, venue.name), unsubscribeUrl: `${ctx.baseUrl}${UNSUBSCRIBE_PATH}/${token}` };
  const channels = {} as Record<Channel, { to: string | null; reason: Ineligible | null; message: RenderedMessage; token: string | null }>;
  for (const channel of order) {
    const to = channel === 'email' ? venue.email : venue.phone;
    const optedOut = to !== null && optOuts.some((o) => o.channel === channel && o.address === to);
    const recentTouches = await repos.outreach.countSince(venue.id, [channel], now - FREQUENCY_CAP.windowMs);
    const reason = ineligibility(channel, { address: to, configured: ctx.channels[channel] !== null, optedOut, recentTouches }, now, venue.time_zone);
    channels[channel] = { to, reason, message: renderScript(kind, channel, facts), token: channel === 'email' ? token : null };
  }
  return { order, kind, channels };
}

/** The unsubscribe token of a deal's n-th touch: keyed, so the preview shows the very link that is sent; only its hash is stored. */
export function unsubscribeToken(key: string, dealId: string, touch: number): string {
  return createHmac('sha256', key).update(`outreach-unsubscribe:${dealId}:${touch}`).digest('base64url');
}

export function unsubscribeUrl(ctx: TouchPlanContext, dealId: string, touch: number): string {
  return `${ctx.baseUrl}${UNSUBSCRIBE_PATH}/${unsubscribeToken(ctx.tokenKey, dealId, touch)}`;
}
