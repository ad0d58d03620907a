import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { DispenseBook } from './book.ts';
import { MemoryJsonlJournal, parseJsonl } from '../state/jsonl-journal.ts';
import { JournalRecord } from './journal.ts';

const intent = (id: string, commandId?: string) => ({
  id,
  kind: 'command' as const,
  ...(commandId ? { commandId } : {}),
  aisle: 3,
  seq: 5,
  bootId: 77,
  boardLastSeq: 4,
});
const outcome = (id: string, commandId?: string) => ({
  id,
  kind: 'command' as const,
  ...(commandId ? { commandId } : {}),
  aisle: 3,
  success: true,
  outcome: 'success' as const,
  detail: 'aisle 3 vended',
  motorRan: 'yes' as const,
  via: 'dispense' as const,
});

function book(journal = new MemoryJsonlJournal(JournalRecord), opts = {}) {
  const clock = new ManualClock(1000);
  const b = new DispenseBook(journal, clock, opts);
  b.load();
  return { b, journal, clock };
}

describe('journal format', () => {
  it('drops a last line cut short by a crash and keeps every whole record before it', () => {
    const j = new MemoryJsonlJournal(JournalRecord);
    const { b } = book(j);
    b.recordIntent(intent('drop:a', 'a'));
    b.recordOutcome(outcome('drop:a', 'a'));
    const whole = j.text;
    j.text = whole + '{"t":"delivered","id":"drop:a","at":12'; // power cut mid-write
    const again = book(j);
    expect(again.b.pending().map((o) => o.id)).toEqual(['drop:a']);
    expect(j.text).toBe(whole); // truncated back to the last whole record
  });

  it('skips a damaged line in the middle but keeps the records around it', () => {
    const good = JSON.stringify({ t: 'intent', id: 'drop:b', at: 1, kind: 'command', aisle: 2, seq: 9, bootId: 1, boardLastSeq: 8 });
    const p = parseJsonl(`${good}\n{"t":"intent","id":\n${good}\n`, JournalRecord);
    expect(p.records).toHaveLength(2);
    expect(p.dropped).toBe(1);
  });

  it('refuses records that break the schema (an unknown outcome, a seq outside 1..127)', () => {
    const p = parseJsonl(
      [
        JSON.stringify({ t: 'intent', id: 'x', at: 1, kind: 'command', aisle: 2, seq: 0, bootId: 1, boardLastSeq: 0 }),
        JSON.stringify({
          t: 'outcome',
          id: 'x',
          at: 1,
          kind: 'command',
          aisle: 2,
          success: true,
          outcome: 'exploded',
          detail: '',
          motorRan: 'yes',
          via: 'dispense',
        }),
      ].join('\n') + '\n',
      JournalRecord,
    );
    expect(p.records).toEqual([]);
    expect(p.dropped).toBe(2);
  });
});

describe('the dispense book', () => {
  it('an intent without an outcome is unresolved; an outcome is a pending report until delivered or rejected', () => {
    const { b } = book();
    b.recordIntent(intent('drop:1', 'c1'));
    expect(b.unresolved().map((i) => i.id)).toEqual(['drop:1']);
    expect(b.depth()).toBe(0);
    b.recordOutcome(outcome('drop:1', 'c1'));
    expect(b.unresolved()).toEqual([]);
    expect(b.depth()).toBe(1);
    b.recordDelivered('drop:1', { duplicate: false, status: 'acknowledged' });
    expect(b.depth()).toBe(0);
    expect(b.recent(5)[0]).toMatchObject({ dispenseId: 'drop:1', report: 'delivered' });
  });

  it('reports wait in the order the dispenses ended, and a rejected one no longer blocks the queue', () => {
    const { b } = book();
    for (const id of ['a', 'b', 'c']) b.recordOutcome(outcome(`drop:${id}`, id));
    expect(b.head()?.id).toBe('drop:a');
    b.recordRejected('drop:a', { status: 400, message: 'wrong aisle' });
    expect(b.pending().map((o) => o.id)).toEqual(['drop:b', 'drop:c']);
    expect(b.rejected()[0]).toMatchObject({ id: 'drop:a', status: 400 });
  });

  it('knows a command from its intent alone, so a command listed again after a crash is never run twice', () => {
    const j = new MemoryJsonlJournal(JournalRecord);
    book(j).b.recordIntent(intent('drop:c9', 'c9'));
    const after = book(j).b;
    expect(after.knowsCommand('c9')).toBe(true);
    expect(after.knowsCommand('c10')).toBe(false);
  });

  it('a second outcome for one dispense is a bug and is refused', () => {
    const { b } = book();
    b.recordOutcome(outcome('drop:1'));
    expect(() => b.recordOutcome(outcome('drop:1'))).toThrow(/already has an outcome/);
  });

  it('every change is on the journal before it counts: a failed append changes nothing', () => {
    const { b, journal } = book();
    journal.failNextAppend = new Error('ENOSPC');
    expect(() => b.recordIntent(intent('drop:1', 'c1'))).toThrow('ENOSPC');
    expect(b.unresolved()).toEqual([]);
    expect(b.knowsCommand('c1')).toBe(false);
  });

  it('compaction keeps every unfinished dispense and the newest finished ones, in order', () => {
    const { b, journal, clock } = book(new MemoryJsonlJournal(JournalRecord), { keepFinished: 2, compactEvery: 1000 });
    for (let i = 1; i <= 5; i++) {
      b.recordIntent(intent(`drop:${i}`, `c${i}`));
      b.recordOutcome(outcome(`drop:${i}`, `c${i}`));
      clock.advance(1000);
    }
    for (let i = 1; i <= 3; i++) b.recordDelivered(`drop:${i}`, { duplicate: false, status: 'acknowledged' });
    b.recordIntent(intent('drop:6', 'c6')); // interrupted
    b.compact();
    const reloaded = book(journal).b;
    expect(reloaded.unresolved().map((i) => i.id)).toEqual(['drop:6']);
    expect(reloaded.pending().map((o) => o.id)).toEqual(['drop:4', 'drop:5']);
    expect(reloaded.recent(10).map((v) => v.dispenseId)).toEqual(['drop:5', 'drop:4', 'drop:3', 'drop:2']);
    expect(reloaded.knowsCommand('c1')).toBe(false); // old and finished: forgotten
    expect(reloaded.knowsCommand('c6')).toBe(true);
  });
});
