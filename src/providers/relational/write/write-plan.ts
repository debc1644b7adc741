import type { PerWriteTtl } from '../../../model/per-write-ttl';
import type { BatchOp } from '../drivers/executor';
import type { EntityTable } from '../table/entity-table';
import { bind, type BindContext, type Slot, type Statement } from '../table/statement';
import { expiryOfWrite, perWriteSeconds } from './expiry-resolver';
import type { ConflictRule, ExpirySource, WriteExpiry } from './write-expiry';
import { deleteExpiredByKey, insertRow, upsertRow } from './write-sql';
import { encodeStamped, expiryValues, instantOf, type WriteInstant } from './timestamps';

/** The two writes of a whole row. */
export type RowWrite = 'insert' | 'upsert';

/** What a write binds after the row's columns: the TTL's seconds, the expiry instant, or "now". */
type TailValue = 'seconds' | 'expiry' | 'now';

/**
 * One write of one table compiled once: the statement, its parameter order and its expiry
 * expression (`now + ?` in SQL on the database clock, or an instant bound as is), for one expiry
 * shape (where expires_at comes from and, for an upsert, the rule over a live row). Each per-write
 * TTL kind resolves to one shape per table (expiry-resolver.ts): 'duration' and 'extend' add
 * seconds to the database clock (or bind now + n from an injected clock), 'never' and `{ at }`
 * bind a value, 'default' and 'keep' take the table's default.
 */
export interface WritePlan {
  readonly statement: Statement;
  /**
   * Where the parameters come from after the row's columns, in order, when the statement starts
   * with every column in order (then the encoded row is the parameter array); null otherwise
   * (bound slot by slot).
   */
  readonly tail: readonly TailValue[] | null;
  /** Refuses an insert that changed no row (a conditional insert met a live row with the key); else accepts any count. */
  readonly check: (changes: number) => void;
  /** MariaDB/MySQL inserts: the DELETE of an expired row holding the key, run first. */
  readonly clear: Statement | null;
  /** The tail is the TTL's seconds alone (a write on the database clock, the common one). */
  readonly secondsOnly: boolean;
}

/** A row's write, bound; `before` runs first in the same transaction (the clearing DELETE). */
export interface BoundWrite extends BatchOp {
  readonly check: (changes: number) => void;
  readonly before: BatchOp | null;
}

/** A table's compiled writes, by write and expiry shape; compiled on first use. */
class WritePlans {
  private readonly plans: Record<RowWrite, Record<ExpirySource, Partial<Record<ConflictRule, WritePlan>>>> = {
    insert: { nowPlus: {}, value: {} },
    upsert: { nowPlus: {}, value: {} },
  };
  /** The tail length of the last plan of each write: the row is encoded with room for it. */
  readonly room: Record<RowWrite, number> = { insert: 0, upsert: 0 };

  constructor(private readonly t: EntityTable) {}

  /** Each write's plan of now + seconds on the database clock, the shape of most writes. */
  private insertNowPlus: WritePlan | null = null;
  private upsertNowPlus: WritePlan | null = null;

  nowPlus(write: RowWrite): WritePlan {
    return write === 'insert'
      ? (this.insertNowPlus ??= this.plan('insert', 'nowPlus', 'replace'))
      : (this.upsertNowPlus ??= this.plan('upsert', 'nowPlus', 'replace'));
  }

  plan(write: RowWrite, source: ExpirySource, rule: ConflictRule): WritePlan {
    // An insert meets no live row to apply a rule to: one plan per source.
    const byRule = this.plans[write][source];
    const key = write === 'insert' ? 'replace' : rule;
    return (byRule[key] ??= compile(this.t, write, source, key));
  }
}

const PLANS = new WeakMap<EntityTable, WritePlans>();

/**
 * The last table asked for: a unit of work's writes are mostly of one table, so no WeakMap lookup
 * for the repeats. It keeps that one table (its model and statement texts, no connection) after
 * its session closed, until a write to another table.
 */
let lastTable: EntityTable | null = null;
let lastPlans: WritePlans | null = null;

function plansOf(t: EntityTable): WritePlans {
  if (t === lastTable) return lastPlans as WritePlans;
  let plans = PLANS.get(t);
  if (!plans) {
    plans = new WritePlans(t);
    PLANS.set(t, plans);
  }
  lastTable = t;
  lastPlans = plans;
  return plans;
}

/** The compiled write of `t` for one expiry shape (an insert ignores the rule: it meets no live row). */
export function writePlan(t: EntityTable, write: RowWrite, source: ExpirySource, rule: ConflictRule): WritePlan {
  return plansOf(t).plan(write, source, rule);
}

function compile(t: EntityTable, write: RowWrite, source: ExpirySource, rule: ConflictRule): WritePlan {
  // The statement cache is shared with the rest of the table's statements (one per shape and text).
  const statement =
    write === 'insert'
      ? t.statement(`insert:${source}`, () => insertRow(t, t.nowMode, source))
      : t.statement(`upsert:${source}:${rule}`, () => upsertRow(t, t.nowMode, source, rule));
  const insert = write === 'insert';
  const clear =
    insert && !t.family.conditionalInsert && t.expiryColumn
      ? t.statement('delete-expired', () => deleteExpiredByKey(t, t.nowMode, t.expiryColumn as string))
      : null;
  const tail = tailOf(statement, t.dataColumns.length);
  return Object.freeze({
    statement,
    tail,
    check: insert && t.family.conditionalInsert ? t.refuseDuplicate : anyCount,
    clear,
    secondsOnly: tail !== null && tail.length === 1 && tail[0] === 'seconds',
  });
}

/** Every bound write has a check: one object shape for the executor's loop. */
function anyCount(): void {}

function tailOf(statement: Statement, columns: number): readonly TailValue[] | null {
  if (statement.leadingCols !== columns) return null;
  const tail: TailValue[] = [];
  for (const slot of statement.slots.slice(columns)) {
    const value = tailValue(slot);
    if (value === null) return null;
    tail.push(value);
  }
  return Object.freeze(tail);
}

function tailValue(slot: Slot): TailValue | null {
  switch (slot.kind) {
    case 'seconds':
    case 'expiry':
    case 'now':
      return slot.kind;
    case 'col':
    case 'key':
    case 'arg':
      return null;
  }
}

const NO_EXPIRY: WriteExpiry = Object.freeze({ source: 'value', value: undefined, rule: 'replace' });

/** A bound write the caller reuses from one write to the next (a unit of work's: see bindWrite). */
export interface WriteSlot {
  statement: Statement;
  params: unknown[];
  check: (changes: number) => void;
  before: BatchOp | null;
}

/**
 * One insert or upsert of an instance, bound: timestamps stamped, the per-write TTL checked and its
 * expiry resolved once, then the compiled plan of that expiry's shape binds the encoded row and
 * the expiry in the statement's order. With `into`, the write is bound into that object instead of
 * a new one: a unit of work binds each write as its transaction reaches it and the executor runs it
 * before asking for the next, so one object serves the whole unit. `stamped`: the instant its
 * timestamps take (timestamps.ts; a unit of work gives one for all its writes).
 */
export function bindWrite(
  t: EntityTable,
  write: RowWrite,
  instance: object,
  requested: PerWriteTtl | undefined,
  into?: WriteSlot,
  stamped?: WriteInstant,
): BoundWrite {
  const plans = plansOf(t);
  const instant = instantOf(t, stamped);
  // Encoded first (a bad value fails before a bad TTL, as it always did), with room for the tail.
  const params = encodeStamped(t, instance, instant, plans.room[write], into?.params);
  const values = expiryValues(t, instance, instant);
  // Seconds as a number (most writes) bind as they are: no expiry object per write.
  const seconds = t.nowMode === 'db' ? perWriteSeconds(t, requested, values) : null;
  const expiry = seconds === null ? (expiryOfWrite(t, requested, values) ?? NO_EXPIRY) : null;
  const plan = expiry ? plans.plan(write, expiry.source, expiry.rule) : plans.nowPlus(write);
  const now = t.nowParam();
  const { tail } = plan;
  let bound = params;
  const columns = t.dataColumns.length;
  if (plan.secondsOnly && expiry === null) {
    // The common write: the seconds after the row (no loop over the tail's kinds).
    if (params.length !== columns + 1) {
      params.length = columns + 1;
      plans.room[write] = 1;
    }
    params[columns] = seconds;
  } else if (tail === null) {
    params.length = columns;
    bound = bind(plan.statement, contextOf(params, expiry, seconds, now));
  } else {
    // The room was right unless this write's shape has another tail than the last one.
    if (params.length !== columns + tail.length) {
      params.length = columns + tail.length;
      plans.room[write] = tail.length;
    }
    for (let i = 0; i < tail.length; i++) {
      params[columns + i] = tailParam(tail[i] as TailValue, expiry, seconds, now);
    }
  }
  const before = plan.clear ? { statement: plan.clear, params: bind(plan.clear, { cols: params, now }) } : null;
  if (!into) return { statement: plan.statement, params: bound, check: plan.check, before };
  into.statement = plan.statement;
  into.params = bound;
  into.check = plan.check;
  into.before = before;
  return into;
}

/** A tail parameter: `seconds` when the write's TTL is seconds on the database clock, else from its expiry. */
function tailParam(value: TailValue, expiry: WriteExpiry | null, seconds: number | null, now: unknown): unknown {
  switch (value) {
    case 'seconds':
      return expiry ? expiry.seconds : seconds;
    case 'expiry':
      return expiry?.value;
    case 'now':
      return now;
  }
}

function contextOf(cols: unknown[], expiry: WriteExpiry | null, seconds: number | null, now: unknown): BindContext {
  return expiry
    ? { cols, now, seconds: expiry.seconds, expiry: expiry.value }
    : { cols, now, seconds: seconds ?? undefined };
}
