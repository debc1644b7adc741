import { createHash } from 'node:crypto';
import { sqlFamily } from '../families/by-dialect';
import type { RelationalDialect } from '../families/dialects';

/**
 * Where a bound value comes from. `col`: the encoded value of column i of a row; `key`: key member
 * i; `arg`: a statement-specific argument i; `now`: the injected "now"; `seconds`: a TTL in whole
 * seconds; `expiry`: an encoded expiry instant (or NULL).
 */
export type Slot =
  | { readonly kind: 'col'; readonly index: number }
  | { readonly kind: 'key'; readonly index: number }
  | { readonly kind: 'arg'; readonly index: number }
  | { readonly kind: 'now' }
  | { readonly kind: 'seconds' }
  | { readonly kind: 'expiry' };

/** A statement built once per entity and shape; drivers prepare it once per connection. */
export interface Statement {
  /** A stable name derived from the text (PostgreSQL named statements). */
  readonly name: string;
  readonly sql: string;
  readonly slots: readonly Slot[];
  /** Read statements return rows (as arrays, in select-list order). */
  readonly reads: boolean;
  /** SQLite: read INTEGER columns as BigInt (the table has a bigint member). */
  readonly bigints: boolean;
  /** Its parameters are the key members in key order and nothing else: the encoded key binds it as is. */
  readonly keyOnly: boolean;
  /**
   * How many leading slots are the row's columns 0, 1, … in order: when that is every column, a
   * write binds the encoded row itself and appends the rest (no second array per row).
   */
  readonly leadingCols?: number;
  /** For error messages. */
  readonly entity: string;
}

export interface BindContext {
  cols?: readonly unknown[] | undefined;
  key?: readonly unknown[] | undefined;
  args?: readonly unknown[] | undefined;
  now?: unknown;
  seconds?: number | undefined;
  expiry?: unknown;
}

export function bind(statement: Statement, ctx: BindContext): unknown[] {
  const { slots } = statement;
  const params = new Array<unknown>(slots.length);
  for (let i = 0; i < slots.length; i++) params[i] = valueOf(slots[i] as Slot, ctx);
  return params;
}

/**
 * Binds a write of one row. `cols` is the row's freshly encoded array, owned by this write: when
 * the statement starts with every column in order it becomes the parameters, the remaining slots
 * (expiry, seconds, now) appended, so the hot insert path copies nothing per row.
 */
export function bindRow(statement: Statement, cols: unknown[], ctx: BindContext): unknown[] {
  if (statement.leadingCols !== cols.length) return bind(statement, ctx);
  const { slots } = statement;
  for (let i = cols.length; i < slots.length; i++) cols.push(valueOf(slots[i] as Slot, ctx));
  return cols;
}

function valueOf(slot: Slot, ctx: BindContext): unknown {
  switch (slot.kind) {
    case 'col':
      return ctx.cols?.[slot.index];
    case 'key':
      return ctx.key?.[slot.index];
    case 'arg':
      return ctx.args?.[slot.index];
    case 'now':
      return ctx.now;
    case 'seconds':
      return ctx.seconds;
    case 'expiry':
      return ctx.expiry;
  }
}

/**
 * Collects placeholders while SQL text is written: `?` for SQLite and MariaDB/MySQL (each
 * occurrence bound again), `$n` for PostgreSQL (one number per distinct source, reused).
 */
export class SqlWriter {
  private readonly slots: Slot[] = [];
  private readonly numbered: boolean;

  constructor(dialect: RelationalDialect) {
    this.numbered = sqlFamily(dialect).numberedParams;
  }

  param(slot: Slot): string {
    if (!this.numbered) {
      this.slots.push(slot);
      return '?';
    }
    const found = this.slots.findIndex((s) => sameSlot(s, slot));
    if (found >= 0) return `$${found + 1}`;
    this.slots.push(slot);
    return `$${this.slots.length}`;
  }

  finish(sql: string, entity: string, reads: boolean, bigints: boolean): Statement {
    const name = `ls_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    const slots = Object.freeze([...this.slots]);
    const keyOnly = slots.length > 0 && slots.every((slot, i) => slot.kind === 'key' && slot.index === i);
    let leadingCols = 0;
    while (leadingCols < slots.length && isCol(slots[leadingCols] as Slot, leadingCols)) leadingCols++;
    return Object.freeze({ name, sql, slots, reads, bigints, keyOnly, leadingCols, entity });
  }
}

function isCol(slot: Slot, index: number): boolean {
  return slot.kind === 'col' && slot.index === index;
}

function sameSlot(a: Slot, b: Slot): boolean {
  if (a.kind !== b.kind) return false;
  return !('index' in a) || a.index === (b as { index: number }).index;
}
