import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryJsonlJournal, parseJsonl } from './jsonl-journal.ts';

// The append-only JSON-lines journal's rules, on text (the file itself: jsonl-journal.int.test.ts).

const Rec = z.object({ t: z.literal('r'), n: z.number().int().min(1) });
type Rec = z.infer<typeof Rec>;
const r = (n: number): Rec => ({ t: 'r', n });
const line = (n: number): string => JSON.stringify(r(n)) + '\n';

describe('parseJsonl', () => {
  it('a line cut short is the torn tail: dropped, counted, and not part of the good prefix', () => {
    const whole = line(1) + line(2);
    const p = parseJsonl(whole + '{"t":"r","n":3', Rec);
    expect(p.records).toEqual([r(1), r(2)]);
    expect(p.dropped).toBe(1);
    expect(p.goodBytes).toBe(Buffer.byteLength(whole));
  });

  it('a whole line that is not JSON or breaks the schema is dropped and counted; the lines around it are kept, and so is the line itself', () => {
    const text = line(1) + '{"t":"r","n":\n' + JSON.stringify({ t: 'r', n: 0 }) + '\n' + JSON.stringify({ t: 'x', n: 1 }) + '\n' + line(2);
    const p = parseJsonl(text, Rec);
    expect(p.records).toEqual([r(1), r(2)]);
    expect(p.dropped).toBe(3);
    expect(p.goodBytes).toBe(Buffer.byteLength(text)); // nothing to truncate: only a torn tail is cut
  });

  it('blank lines are neither records nor dropped; an empty text is an empty journal', () => {
    expect(parseJsonl(line(1) + '\n  \n' + line(2), Rec)).toMatchObject({ records: [r(1), r(2)], dropped: 0 });
    expect(parseJsonl('', Rec)).toEqual({ records: [], goodBytes: 0, dropped: 0 });
  });

  it('counts the good prefix in UTF-8 bytes', () => {
    const S = z.object({ s: z.string() });
    const whole = JSON.stringify({ s: 'café ☕' }) + '\n';
    const p = parseJsonl(whole + '{"s":"é', S);
    expect(p.records).toEqual([{ s: 'café ☕' }]);
    expect(p.goodBytes).toBe(Buffer.byteLength(whole));
    expect(p.goodBytes).toBeGreaterThan(whole.length);
  });
});

describe('MemoryJsonlJournal', () => {
  it('a load drops the torn tail and truncates the text back to the last whole record; appends go on after it', () => {
    const j = new MemoryJsonlJournal(Rec);
    j.append([r(1), r(2)]);
    const whole = j.text;
    j.text += '{"t":"r","n":3'; // power cut mid-write
    expect(j.load()).toEqual({ records: [r(1), r(2)], dropped: 1 });
    expect(j.text).toBe(whole);
    j.append([r(3)]);
    expect(j.load()).toEqual({ records: [r(1), r(2), r(3)], dropped: 0 });
  });

  it('one append of many records counts once; a failing append writes nothing', () => {
    const j = new MemoryJsonlJournal(Rec);
    j.append([r(1), r(2), r(3)]);
    expect(j.appends).toBe(1);
    j.failNextAppend = new Error('ENOSPC');
    expect(() => j.append([r(4)])).toThrow('ENOSPC');
    expect(j.appends).toBe(1);
    expect(j.load().records).toEqual([r(1), r(2), r(3)]);
  });

  it('a compaction replaces the whole journal', () => {
    const j = new MemoryJsonlJournal(Rec);
    j.append([r(1), r(2), r(3)]);
    j.rewrite([r(3)]);
    expect(j.rewrites).toBe(1);
    expect(j.text).toBe(line(3));
    j.append([r(4)]);
    expect(j.load().records).toEqual([r(3), r(4)]);
  });
});
