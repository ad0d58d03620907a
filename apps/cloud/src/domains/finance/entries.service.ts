import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuditLog } from '../../http/audit.ts';
import { requireOwned } from '../../http/authenticate.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { EntryView } from './ledger.repo.ts';
import { booksOf, machineInBooks, venueInBooks } from './finance.scope.ts';
import type { CreateEntryBody, Entry, EntryListQuery, ReverseEntryBody } from './finance.schemas.ts';

export interface EntriesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

/**
 * Referrals, payroll and expenses (spec 1 §4.8's P&L lines): amounts the operator records, dated by
 * day, for the whole business or against one machine or one venue. The ledger is append-only: a
 * mistake is corrected by a reversing entry (the negated amount on the original's day), never an edit.
 */
export class EntriesService {
  constructor(private readonly deps: EntriesDeps) {}

  /** An entry of the caller's operator (an admin's: its own operator's, as venues and purchase orders). */
  async create(p: Principal, body: CreateEntryBody): Promise<Entry> {
    if (body.machineNo !== undefined && body.venueId !== undefined)
      throw badRequest(undefined, [{ path: 'body.venueId', message: 'an entry is against one machine or one venue, not both' }]);
    const now = this.deps.clock.now();
    const id = newId('fin', now);
    await this.deps.store.transaction(async (tx) => {
      let machineId: string | null = null;
      if (body.machineNo !== undefined) {
        const m = await tx.machines.machineByNo(body.machineNo);
        if (!m || m.operator_id !== p.operatorId)
          throw badRequest(undefined, [{ path: 'body.machineNo', message: `${body.machineNo} is not one of your machines` }]);
        machineId = m.id;
      }
      if (body.venueId !== undefined) {
        const v = await tx.venues.byId(body.venueId);
        if (!v || v.operator_id !== p.operatorId) throw badRequest(undefined, [{ path: 'body.venueId', message: `${body.venueId} is not one of your venues` }]);
      }
      await tx.ledger.insertEntry({
        id,
        operator_id: p.operatorId,
        kind: body.kind,
        amount_cents: body.amount,
        occurred_on: body.occurredOn,
        machine_id: machineId,
        venue_id: body.venueId ?? null,
        memo: body.memo ?? null,
        reverses_id: null,
        created_at: now,
      });
      await this.deps.audit.record(tx, p, 'finance.entry', `entry:${id}`);
    });
    return this.get(p, id);
  }

  async list(p: Principal, q: EntryListQuery): Promise<Page<Entry>> {
    const repos = this.deps.store.repos;
    const books = await booksOf(repos, p, q.operatorEmail);
    const machine = q.machineNo === undefined ? null : await machineInBooks(repos, p, books, q.machineNo);
    if (q.venueId !== undefined) await venueInBooks(repos, p, books, q.venueId);
    if (q.from !== undefined && q.to !== undefined && q.from > q.to) throw badRequest(undefined, [{ path: 'query.from', message: 'must not be after to' }]);
    const { total, rows } = await repos.ledger.page(
      {
        ownerId: books.ownerId,
        kind: q.kind ?? null,
        fromDay: q.from ?? null,
        toDay: q.to ?? null,
        machineId: machine?.id ?? null,
        venueId: q.venueId ?? null,
      },
      q.size,
      offsetOf(q),
    );
    return { page: q.page, size: q.size, total, records: rows.map((r) => toEntry(p, r)) };
  }

  async get(p: Principal, id: string): Promise<Entry> {
    const row = requireOwned(p, await this.deps.store.repos.ledger.entry(id), () => notFound('Entry'));
    return toEntry(p, row);
  }

  /** Posts the reversing entry of `id`: once per entry (409 after); a reversal itself is not reversed (400). */
  async reverse(p: Principal, id: string, body: ReverseEntryBody): Promise<Entry> {
    const now = this.deps.clock.now();
    const reversalId = newId('fin', now);
    try {
      await this.deps.store.transaction(async (tx) => {
        const e = requireOwned(p, await tx.ledger.entry(id), () => notFound('Entry'));
        if (e.reverses_id !== null) throw badRequest(`Entry ${id} is a reversal; record a new entry instead`);
        if (e.reversed_by !== null) throw conflict(`Entry ${id} is already reversed by ${e.reversed_by}`);
        await tx.ledger.insertEntry({
          id: reversalId,
          operator_id: e.operator_id,
          kind: e.kind,
          amount_cents: -e.amount_cents,
          occurred_on: e.occurred_on,
          machine_id: e.machine_id,
          venue_id: e.venue_id,
          memo: body.memo ?? `reversal of ${id}`,
          reverses_id: id,
          created_at: now,
        });
        await this.deps.audit.record(tx, p, 'finance.entry.reverse', `entry:${id}`);
      });
    } catch (e) {
      // a second reversal racing in: the unique reverses_id refuses it
      if (isUniqueViolation(e)) throw conflict(`Entry ${id} is already reversed`);
      throw e;
    }
    return this.get(p, reversalId);
  }
}

function toEntry(p: Principal, r: EntryView): Entry {
  return {
    id: r.id,
    kind: r.kind as Entry['kind'],
    amount: centsToDecimal(r.amount_cents),
    amountCents: r.amount_cents,
    occurredOn: r.occurred_on,
    machineNo: r.machine_no,
    venueId: r.venue_id,
    venueName: r.venue_name,
    memo: r.memo,
    reversesId: r.reverses_id,
    reversedById: r.reversed_by,
    createdAt: formatTimestamp(r.created_at)!,
    ...(p.admin ? { operatorEmail: r.operator_email } : {}),
  };
}
