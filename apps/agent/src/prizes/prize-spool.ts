import { CONTROL_PRIZE_EVENTS_MAX, PRIZE_EVENTS_MAX, PrizeEvent } from '@vend/protocol';
import type { ControlPrizeEventsAccepted, PrizeStateData } from '@vend/protocol';
import { BatchSpool, batchSpoolRecord } from '../cloud/batch-spool.ts';
import type { BatchSpoolRecord } from '../cloud/batch-spool.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import type { DeliveryLoopOptions } from '../cloud/delivery-loop.ts';
import type { JsonlStore } from '../state/jsonl-journal.ts';

/** The prize spool's file (`prize-events.log`): the kiosk spools' record format (cloud/batch-spool.ts), one game event per item record. */
export const PrizeSpoolRecord = batchSpoolRecord(PrizeEvent);
export type PrizeSpoolRecord = BatchSpoolRecord<PrizeEvent>;

export interface PrizeSpoolOptions extends DeliveryLoopOptions {
  journal: JsonlStore<PrizeSpoolRecord>;
  client: Pick<CloudClient, 'prizeEvents'>;
  log: CloudLogger;
  /** Events kept at most; past it the oldest are dropped (counted). At least CONTROL_PRIZE_EVENTS_MAX. */
  max: number;
  /** How long events gather before a batch is sent (0: at once). A full batch goes at once. */
  flushMs: number;
  /** The cloud answered a batch: the state the cabinet must follow from now on. */
  onState(state: PrizeStateData): void;
  /** An event the cloud refused as malformed (set aside, counted). */
  onRejected?(event: PrizeEvent, message: string): void;
}

/**
 * The prize-event spool: a kiosk spool (cloud/batch-spool.ts) of the kiosk's game events, sent to
 * `POST /cabinet/prize-events` in batches of at most 500. The cloud counts an event once by its
 * `eventId`, so that is the event's identity here too. Every answered batch is delivered whatever the
 * cloud's verdict on each event — accepted, duplicate or refused (over a cap, the budget, a mechanic
 * that is off): a refusal is the cloud's decision, kept and reported there, and its `state` (passed to
 * `onState`) is how the kiosk learns to stop. `accepted` counts the new events the cloud judged.
 */
export class PrizeSpool extends BatchSpool<PrizeEvent> {
  constructor(opts: PrizeSpoolOptions) {
    const { client, onState, onRejected, log, ...rest } = opts;
    super({
      ...rest,
      log,
      noun: 'prize event',
      requestMax: CONTROL_PRIZE_EVENTS_MAX,
      batchMax: PRIZE_EVENTS_MAX,
      key: (e) => e.eventId,
      send: async (events, options) => {
        const answer = await client.prizeEvents(events, options);
        onState(answer.state);
        if (answer.refused.length > 0) log.info({ refused: answer.refused.slice(0, 20), count: answer.refused.length }, 'the cloud refused prize events');
        return { accepted: events.length - answer.duplicates, duplicates: answer.duplicates };
      },
      ...(onRejected ? { onRejected } : {}),
    });
  }

  override add(events: PrizeEvent[]): ControlPrizeEventsAccepted {
    return super.add(events);
  }
}
