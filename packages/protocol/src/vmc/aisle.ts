import { VMC_MAX_COLUMNS, VMC_MAX_ROWS } from './constants.ts';

/** Machine geometry from the configuration block (spec 2 §2.4): defaults 6 rows × 10 columns. */
export interface AisleGeometry {
  rows: number;
  columnsPerRow: number;
}

export const DEFAULT_GEOMETRY: AisleGeometry = Object.freeze({ rows: 6, columnsPerRow: 10 });

export interface RowColumn {
  /** 1-based. */
  row: number;
  /** 1-based. */
  column: number;
}

function checkGeometry(g: AisleGeometry): void {
  if (!Number.isInteger(g.rows) || g.rows < 1 || g.rows > VMC_MAX_ROWS) throw new RangeError(`rows must be 1..${VMC_MAX_ROWS}, got ${g.rows}`);
  if (!Number.isInteger(g.columnsPerRow) || g.columnsPerRow < 1 || g.columnsPerRow > VMC_MAX_COLUMNS)
    throw new RangeError(`columnsPerRow must be 1..${VMC_MAX_COLUMNS}, got ${g.columnsPerRow}`);
}

export function aisleCount(g: AisleGeometry): number {
  checkGeometry(g);
  return g.rows * g.columnsPerRow;
}

export function isValidAisle(aisle: number, g: AisleGeometry): boolean {
  return Number.isInteger(aisle) && aisle >= 1 && aisle <= aisleCount(g);
}

/** Aisle number = (row − 1) × columnsPerRow + column (spec 2 §2.4). */
export function aisleOf(rc: RowColumn, g: AisleGeometry): number {
  checkGeometry(g);
  if (!Number.isInteger(rc.row) || rc.row < 1 || rc.row > g.rows) throw new RangeError(`row must be 1..${g.rows}, got ${rc.row}`);
  if (!Number.isInteger(rc.column) || rc.column < 1 || rc.column > g.columnsPerRow)
    throw new RangeError(`column must be 1..${g.columnsPerRow}, got ${rc.column}`);
  return (rc.row - 1) * g.columnsPerRow + rc.column;
}

/** The inverse of aisleOf. */
export function rowColumnOf(aisle: number, g: AisleGeometry): RowColumn {
  if (!isValidAisle(aisle, g)) throw new RangeError(`aisle must be 1..${aisleCount(g)}, got ${aisle}`);
  return { row: Math.floor((aisle - 1) / g.columnsPerRow) + 1, column: ((aisle - 1) % g.columnsPerRow) + 1 };
}
