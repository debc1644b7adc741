import { isFiniteNumber, isSafeInteger, isValidDate, isWellFormed } from '../../../core/values';
import type { EntityModel, FieldType } from '../../../model/types';
import type { Converter, Decoder, Encoder } from '../codec';
import { columnFill, instanceReader } from '../../../runtime/unrolled-fill';

/**
 * Codecs compiled once per entity mapping for the hot paths (insert, get): each member gets a
 * function of its own type, so the checks of one column are one monomorphic test instead of the
 * shared checkValue dispatch. Only the check is compiled: a value that passes its core test
 * (src/core/values.ts) is converted by the generic encoder's own converter (codec.ts
 * converterFor), and every other value (null, a value to widen, a value to refuse) goes to the
 * generic encoder, so it accepts, converts and refuses exactly what the generic one does, with
 * the same LifespanError (test/relational/row-codec.test.ts).
 */
export function compiledEncoder(type: FieldType, convert: Converter, generic: Encoder): Encoder {
  switch (type) {
    case 'string':
      return (v) => (isWellFormed(v) ? convert(v) : generic(v));
    case 'number':
      return (v) => (isFiniteNumber(v) ? convert(v) : generic(v));
    case 'integer':
    case 'counter':
      return (v) => (isSafeInteger(v) ? convert(v) : generic(v));
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? convert(v) : generic(v));
    case 'date':
      return (v) => (isValidDate(v) ? convert(v) : generic(v));
    case 'uuid':
    case 'bigint':
    case 'json':
    case 'binary':
      // Checked by pattern, range or walk: the generic encoder is the whole work.
      return generic;
  }
}

/**
 * A decoder for the value drivers usually return for the type, falling back to the generic decoder
 * (NULL, another representation) for anything else.
 */
export function compiledDecoder(type: FieldType, generic: Decoder): Decoder {
  switch (type) {
    case 'string':
    case 'uuid':
      return (r) => (typeof r === 'string' ? r : generic(r));
    case 'number':
    case 'integer':
    case 'counter':
      return (r) => (typeof r === 'number' ? r : generic(r));
    case 'date':
      // Epoch milliseconds (SQLite's instant) as the generic decoder reads a number; text or a Date goes to it.
      return (r) => (typeof r === 'number' ? new Date(r) : generic(r));
    case 'bigint':
    case 'boolean':
    case 'json':
    case 'binary':
      return generic;
  }
}

/** Encodes a row's member values in column order (see rowEncoder). */
export type RowEncoder = (values: Record<string, unknown>, room?: number, into?: unknown[]) => unknown[];

/**
 * Encodes a row's member values in column order with the compiled encoders; `room` more slots
 * are left at the end, so a write appends its expiry parameters without growing the array. With
 * `into`, that array is filled (and sized) instead of a new one: a unit of work's writes reuse one.
 * The positions in `skip` are left for the caller to fill.
 */
export function rowEncoder(
  members: readonly string[],
  encoders: readonly Encoder[],
  skip?: ReadonlySet<number>,
): RowEncoder {
  const n = members.length;
  const fill = columnFill(members, encoders, skip);
  return (values, room = 0, into) => {
    const cols = into ?? new Array<unknown>(n + room);
    // Setting an array's length is a runtime call: only when the reused one has another size.
    if (into && into.length !== n + room) into.length = n + room;
    fill(values, cols);
    return cols;
  };
}

/**
 * A row read back (select-list order) as an instance of the entity class, decoded straight onto it:
 * members in the entity's field order (the order instanceOf gives), no object of values in between.
 */
export function rowToInstance(
  entity: EntityModel,
  members: readonly string[],
  decoders: readonly Decoder[],
): (row: readonly unknown[]) => object {
  const order = entity.fields.map((f) => members.indexOf(f.member)).filter((i) => i >= 0);
  return instanceReader(
    entity.target,
    order.map((i) => members[i] as string),
    order,
    order.map((i) => decoders[i] as Decoder),
  );
}
