import { describe, expect, it } from 'vitest';
import { storeUnavailable } from './unavailable.ts';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('storeUnavailable', () => {
  it("names a server's shutdown, a refused or reset socket and a pool that could not connect as unreachable", () => {
    expect(storeUnavailable(coded('57P01', 'terminating connection due to administrator command'))).toBe('unreachable');
    expect(storeUnavailable(coded('57P03', 'the database system is starting up'))).toBe('unreachable');
    expect(storeUnavailable(coded('08006'))).toBe('unreachable');
    expect(storeUnavailable(coded('53300', 'too many connections'))).toBe('unreachable');
    expect(storeUnavailable(coded('ECONNREFUSED'))).toBe('unreachable');
    expect(storeUnavailable(new Error('Connection terminated unexpectedly'))).toBe('unreachable');
    expect(storeUnavailable(new Error('timeout exceeded when trying to connect'))).toBe('unreachable');
    // a connect that tried every address of localhost
    expect(storeUnavailable(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))).toBe('unreachable');
    // wrapped by a caller
    expect(storeUnavailable(new Error('sweep failed', { cause: coded('ECONNRESET') }))).toBe('unreachable');
  });

  it('names a full disk, a failing one and a busy store apart', () => {
    expect(storeUnavailable(coded('SQLITE_FULL', 'database or disk is full'))).toBe('full');
    expect(storeUnavailable(coded('53100', 'could not extend file'))).toBe('full');
    expect(storeUnavailable(coded('ENOSPC'))).toBe('full');
    expect(storeUnavailable(coded('SQLITE_IOERR_WRITE'))).toBe('io');
    expect(storeUnavailable(coded('SQLITE_BUSY'))).toBe('busy');
    expect(storeUnavailable(coded('40P01', 'deadlock detected'))).toBe('busy');
  });

  it('leaves every other error alone: a constraint, a syntax error, a bug', () => {
    expect(storeUnavailable(coded('23505', 'duplicate key'))).toBeNull();
    expect(storeUnavailable(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storeUnavailable(coded('42601', 'syntax error'))).toBeNull();
    expect(storeUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(storeUnavailable(null)).toBeNull();
    expect(storeUnavailable('Connection terminated')).toBeNull();
  });
});
