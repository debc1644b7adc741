import { createdAtUnset, stampTimestamps } from '../../../runtime/entity-values';
import type { Encoder } from '../codec';
import type { SqlFamily } from '../families/family';
import type { EntityTable } from '../table/entity-table';

/**
 * The instant a write's @CreatedAt/@UpdatedAt take: the client clock (documented: expiry instants
 * use the database clock, timestamps the client's), read once — a unit of work reads it as its
 * commit begins, so the rows of one transaction share one instant, as they share one now() in
 * SQL — and encoded once per SQL family, so a row costs no Date of its own.
 */
export class WriteInstant {
  private family: SqlFamily | null = null;
  private encoded: unknown = undefined;

  constructor(readonly ms: number = Date.now()) {}

  /** The instant as `t`'s columns store it. */
  encodedFor(t: EntityTable): unknown {
    if (t.family !== this.family) {
      this.family = t.family;
      this.encoded = t.family.encodeInstant(new Date(this.ms));
    }
    return this.encoded;
  }

  date(): Date {
    return new Date(this.ms);
  }
}

/**
 * A row's columns with its timestamps stamped in: @UpdatedAt on every write, @CreatedAt unless
 * the instance holds a real date (not the `new Date(0)` placeholder; for upserts too: an upsert
 * over a live row keeps the stored createdAt in SQL). Only the bound columns are stamped: the
 * instance is left as the caller gave it, as on every store (read the record back for the stored
 * timestamps; an upsert over a live row would otherwise leave the instance a createdAt the row
 * does not have). `room` and `into` as for encodeCols. A caller's @CreatedAt is checked after the
 * other columns (a row with two bad values names the other one).
 */
export function encodeStamped(
  t: EntityTable,
  instance: object,
  instant: WriteInstant | null,
  room: number,
  into?: unknown[],
): unknown[] {
  const encodeRest = t.encodeUnstamped;
  const values = instance as Record<string, unknown>;
  if (encodeRest === null || instant === null) return t.encodeCols(values, room, into);
  const cols = encodeRest(values, room, into);
  const created = t.createdAtCol;
  // One member both @CreatedAt and @UpdatedAt takes the instant in every row bound, as @UpdatedAt does.
  if (created >= 0 && created !== t.updatedAtCol) {
    const given = values[t.entity.createdAt as string];
    cols[created] = createdAtUnset(given) ? instant.encodedFor(t) : (t.encoders[created] as Encoder)(given);
  }
  if (t.updatedAtCol >= 0) cols[t.updatedAtCol] = instant.encodedFor(t);
  return cols;
}

/**
 * The member values a write's expiry is computed from: the instance, or a copy with its timestamps
 * stamped when the TTL counts from one of them (the placeholder is not a time to count from).
 */
export function expiryValues(t: EntityTable, instance: object, instant: WriteInstant | null): Record<string, unknown> {
  const values = instance as Record<string, unknown>;
  const { countsFrom, entity } = t;
  if (instant === null || countsFrom === null) return values;
  if (countsFrom !== entity.createdAt && countsFrom !== entity.updatedAt) return values;
  return stampTimestamps(entity, values, () => instant.date());
}

/** The instant of one write, or null when the table has no timestamps (no clock read). */
export function instantOf(t: EntityTable, given?: WriteInstant): WriteInstant | null {
  return t.encodeUnstamped === null ? null : (given ?? new WriteInstant());
}
