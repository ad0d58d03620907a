import { describe, expect, it } from 'vitest';
import { DEVICE_RUNTIME_DEFAULTS } from './runtime.ts';
import { WitnessBook } from './witness.ts';

describe('witness tokens (x-device-witness)', () => {
  it('no echo is no evidence; the last two tokens handed out are accepted', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 100 });
    expect(w.check('m', undefined)).toBe('none');
    const t1 = w.mint('m');
    expect(w.check('m', t1)).toBe('ok');
    const t2 = w.mint('m');
    expect(w.check('m', t1)).toBe('ok'); // a call in flight when t2 was minted
    expect(w.check('m', t2)).toBe('ok');
    w.mint('m');
    expect(w.check('m', t1)).toBe('stale');
  });

  it('a copied credential on a second box falls behind and is caught', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 100 });
    let boxA: string | undefined;
    let boxB: string | undefined;
    const verdicts: string[] = [];
    const callFrom = (box: 'A' | 'B') => {
      const echo = box === 'A' ? boxA : boxB;
      verdicts.push(w.check('m', echo));
      const token = w.mint('m');
      if (box === 'A') boxA = token;
      else boxB = token;
    };
    // The original polls twice for each call of the copy: the copy's echo is two tokens behind.
    for (const box of ['A', 'B', 'A', 'A', 'B'] as const) callFrom(box);
    expect(verdicts.at(-1)).toBe('stale');
  });

  it('with the default window, one agent with all its legs in flight at once is never suspected, and a copy still is', () => {
    // The agent's heartbeat, pending poll, configuration refresh, report spool and upgrade check run
    // as separate loops: five calls may leave with the same echo before any answer comes back.
    const w = new WitnessBook({ keep: DEVICE_RUNTIME_DEFAULTS.witnessKeep, maxMachines: 100 });
    let echo = w.mint('m');
    for (let round = 0; round < 20; round++) {
      const verdicts = [1, 2, 3, 4, 5].map(() => {
        const v = w.check('m', echo);
        w.mint('m');
        return v;
      });
      expect(verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      echo = w.mint('m');
    }
    // A second box holding a token from a few rounds ago falls outside the window.
    const old = echo;
    for (let i = 0; i < 3; i++) {
      for (let c = 0; c < 3; c++) w.mint('m');
    }
    expect(w.check('m', old)).toBe('stale');
  });

  it('one box calling in sequence is never suspected', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 100 });
    let held: string | undefined;
    for (let i = 0; i < 50; i++) {
      expect(w.check('m', held)).not.toBe('stale');
      held = w.mint('m');
    }
  });

  it('an invented token is stale; one minted by another process (replica, restart) cannot be judged', () => {
    const here = new WitnessBook({ keep: 2, maxMachines: 100, nonce: 'aaaa' });
    const there = new WitnessBook({ keep: 2, maxMachines: 100, nonce: 'bbbb' });
    here.mint('m');
    expect(here.check('m', 'made-up')).toBe('stale');
    expect(here.check('m', 'aaaa.forged-token')).toBe('stale');
    expect(here.check('m', there.mint('m'))).toBe('foreign');
    expect(here.check('other-machine', 'aaaa.whatever')).toBe('foreign');
    expect(here.check('m', 'x'.repeat(500))).toBe('stale');
    // this process's nonce, but a random part that is not 16 bytes as minted
    const minted = here.mint('m');
    expect(here.check('m', minted.slice(0, -1))).toBe('stale');
    expect(here.check('m', `${minted}A`)).toBe('stale');
    expect(here.check('m', `${minted.slice(0, -2)}!!`)).toBe('stale');
    expect(here.check('m', minted)).toBe('ok');
  });

  it('tokens are bound to their machine and the book is bounded', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 2 });
    const ta = w.mint('a');
    w.mint('b');
    expect(w.check('b', ta)).toBe('stale'); // another machine's token is not one b was handed
    w.mint('c'); // evicts a
    expect(w.size).toBe(2);
    expect(w.check('a', ta)).toBe('foreign');
  });

  it('every token is fresh: 16 random bytes after the process nonce, never repeated', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 10, nonce: 'abcd' });
    const tokens = Array.from({ length: 1000 }, () => w.mint('m'));
    expect(new Set(tokens).size).toBe(1000);
    for (const t of tokens) {
      expect(t.startsWith('abcd.')).toBe(true);
      expect(Buffer.from(t.slice(5), 'base64url')).toHaveLength(16);
    }
  });

  it('forget starts a new stream (enrolment, reset)', () => {
    const w = new WitnessBook({ keep: 2, maxMachines: 10 });
    const t = w.mint('m');
    w.forget('m');
    expect(w.check('m', t)).toBe('foreign');
  });
});
