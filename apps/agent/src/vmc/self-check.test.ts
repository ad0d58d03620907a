import { describe, expect, it } from 'vitest';
import { formatSelfCheck } from './self-check.ts';
import type { SelfCheckReport } from './self-check.ts';

const base: SelfCheckReport = {
  ok: false,
  port: '/dev/ttyUSB0',
  link: { framesSent: 2, retransmissions: 0, badFrames: 0 } as SelfCheckReport['link'],
  problems: [],
};

describe('vmc test: the result line says what happened', () => {
  it('a board that never answered is NOT REACHABLE', () => {
    const text = formatSelfCheck({ ...base, error: { code: 'board_unavailable', message: 'could not open /dev/ttyUSB0 after 10 attempts' } });
    expect(text).toMatch(/result: BOARD NOT REACHABLE$/);
  });

  it('a board that answered with a refusal is reachable: the line says which request, and what the refusal means', () => {
    const old = formatSelfCheck({ ...base, error: { code: 'board_refused', message: 'the board refused laneScan (NAK unknownCommand)' } });
    expect(old).not.toMatch(/NOT REACHABLE/);
    expect(old).toMatch(
      /result: BOARD ANSWERED BUT REFUSED the laneScan request \(the port and the cable work\): it does not know that command: its firmware is older/,
    );
    const range = formatSelfCheck({ ...base, error: { code: 'board_refused', message: 'the board refused laneScan (NAK badArgument)' } });
    expect(range).toMatch(/argument out of range/);
    const other = formatSelfCheck({ ...base, error: { code: 'board_refused', message: 'something else' } });
    expect(other).toMatch(/result: BOARD ANSWERED BUT REFUSED a request \(the port and the cable work\): see the error above/);
  });
});
