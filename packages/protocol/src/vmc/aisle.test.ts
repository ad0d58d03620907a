import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_GEOMETRY, aisleCount, aisleOf, isValidAisle, rowColumnOf } from './aisle.ts';

const geometry = fc.record({ rows: fc.integer({ min: 1, max: 32 }), columnsPerRow: fc.integer({ min: 1, max: 32 }) });

describe('aisle numbering', () => {
  it('follows aisle = (row − 1) × columnsPerRow + column on the default 6 × 10 machine', () => {
    expect(aisleCount(DEFAULT_GEOMETRY)).toBe(60);
    expect(aisleOf({ row: 1, column: 1 }, DEFAULT_GEOMETRY)).toBe(1);
    expect(aisleOf({ row: 1, column: 10 }, DEFAULT_GEOMETRY)).toBe(10);
    expect(aisleOf({ row: 2, column: 1 }, DEFAULT_GEOMETRY)).toBe(11);
    expect(aisleOf({ row: 6, column: 10 }, DEFAULT_GEOMETRY)).toBe(60);
    expect(rowColumnOf(23, DEFAULT_GEOMETRY)).toEqual({ row: 3, column: 3 });
  });

  it('row/column and aisle are inverse bijections for every geometry', () => {
    fc.assert(
      fc.property(geometry, fc.nat(), (g, n) => {
        const aisle = (n % aisleCount(g)) + 1;
        const rc = rowColumnOf(aisle, g);
        expect(aisleOf(rc, g)).toBe(aisle);
        expect(rc.row).toBeGreaterThanOrEqual(1);
        expect(rc.row).toBeLessThanOrEqual(g.rows);
        expect(rc.column).toBeLessThanOrEqual(g.columnsPerRow);
      }),
    );
  });

  it('refuses aisles and positions outside the machine', () => {
    expect(isValidAisle(0, DEFAULT_GEOMETRY)).toBe(false);
    expect(isValidAisle(61, DEFAULT_GEOMETRY)).toBe(false);
    expect(isValidAisle(1.5, DEFAULT_GEOMETRY)).toBe(false);
    expect(() => rowColumnOf(61, DEFAULT_GEOMETRY)).toThrow(RangeError);
    expect(() => aisleOf({ row: 7, column: 1 }, DEFAULT_GEOMETRY)).toThrow(RangeError);
    expect(() => aisleOf({ row: 1, column: 11 }, DEFAULT_GEOMETRY)).toThrow(RangeError);
    expect(() => aisleCount({ rows: 0, columnsPerRow: 10 })).toThrow(RangeError);
  });
});
