import { describe, expect, it } from 'vitest';
import { encodeBoardMessage } from '@vend/protocol';
import type { VmcBoardMessage } from '@vend/protocol';
import { LinkFaults } from './link-faults.ts';
import { seededRandom } from './rng.ts';
import type { BoardOutput } from './board.ts';

const ack: VmcBoardMessage = { kind: 'dispenseAck', disposition: 'accepted', aisle: 3, estimateMs: 100 };
const result: VmcBoardMessage = { kind: 'result', aisle: 3, code: 'success', motorMs: 100, dropDetected: true, liftRow: 0 };
const out = (m: VmcBoardMessage): BoardOutput => ({ kind: m.kind === 'result' ? 'result' : 'reply', seq: 1, message: m, bytes: encodeBoardMessage(1, m) });

describe('link faults', () => {
  it('drops exactly the next N ACK-class frames and lets results through', () => {
    const f = new LinkFaults(seededRandom(1));
    f.dropAcks = 2;
    expect(f.outgoing(out(result)).deliver).toBe(true);
    expect(f.outgoing(out(ack)).deliver).toBe(false);
    expect(f.outgoing(out(ack)).deliver).toBe(false);
    expect(f.outgoing(out(ack)).deliver).toBe(true);
  });

  it('delays ACK-class frames only, for as many as asked', () => {
    const f = new LinkFaults(seededRandom(1));
    f.delayAcksMs = 800;
    f.delayAcksCount = 1;
    expect(f.outgoing(out(result))).toMatchObject({ deliver: true, delayMs: 0 });
    expect(f.outgoing(out(ack))).toMatchObject({ deliver: true, delayMs: 800 });
    expect(f.outgoing(out(ack))).toMatchObject({ deliver: true, delayMs: 0 });
  });

  it('corrupts exactly one byte, always to a different value', () => {
    const f = new LinkFaults(seededRandom(9));
    for (let i = 0; i < 500; i++) {
      f.corruptToHost = 1;
      const o = out(ack);
      const fate = f.outgoing(o);
      if (!fate.deliver) throw new Error('lost');
      const diffs = fate.bytes.filter((b, j) => b !== o.bytes[j]).length;
      expect(diffs).toBe(1);
    }
    f.corruptToBoard = 1;
    const chunk = Uint8Array.from([1, 2, 3, 4]);
    expect(f.incoming(chunk).filter((b, j) => b !== chunk[j])).toHaveLength(1);
    expect(f.incoming(chunk)).toEqual(chunk);
  });

  it('loses incoming chunks when told to', () => {
    const f = new LinkFaults(seededRandom(1));
    f.loseToBoard = 1;
    expect(f.incoming(Uint8Array.from([1]))).toHaveLength(0);
    expect(f.incoming(Uint8Array.from([1]))).toHaveLength(1);
  });

  it('random faults hit at roughly the asked rate and clear() stops them', () => {
    const f = new LinkFaults(seededRandom(5));
    f.random = { loseToHost: 0.2, loseToBoard: 0, corruptToHost: 0, corruptToBoard: 0, delayAck: 0, delayMs: [0, 0] };
    let lost = 0;
    for (let i = 0; i < 2000; i++) if (!f.outgoing(out(ack)).deliver) lost++;
    expect(lost).toBeGreaterThan(300);
    expect(lost).toBeLessThan(500);
    f.clear();
    for (let i = 0; i < 100; i++) expect(f.outgoing(out(ack)).deliver).toBe(true);
  });
});
