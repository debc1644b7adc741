import { generatedFunction } from './generated-function';

/** A member's or a column's conversion, one value to one value. */
type Convert = (value: unknown) => unknown;

/**
 * A row's columns read and written by straight-line code made once per mapping (every store's
 * codecs): one statement per member, each with its own call site and a literal property name. The loop it replaces called
 * every column's codec from one call site and read or set every member through one keyed access,
 * which V8 cannot inline or cache past a few members (megamorphic sites,
 * https://v8.dev/blog/elements-kinds and https://mathiasbynens.be/notes/shapes-ics): measured
 * ~0.1 µs a row on insert (docs/performance.md, "Eleventh session"). Member names enter the code as
 * JSON string literals, so `values["a b"]` reads exactly what `values[name]` read. Where code
 * generation from strings is disallowed, the loop is kept.
 */

/** Fills `cols[i]` with `encoders[i](values[members[i]])`, for every i not skipped. */
export type ColumnFill = (values: Record<string, unknown>, cols: unknown[]) => void;

/**
 * Sets `instance[names[j]] = decoders[j](row[sources[j]])`, for every j, in that order; a source is
 * a position in an array row or a column name in an object row.
 */
export type MemberFill = (instance: Record<string, unknown>, row: RowSource) => void;

/** A row as a driver returns it: values by position, or by column name. */
export type RowSource = readonly unknown[] | Readonly<Record<string, unknown>>;

/** `skip`: positions left as they are (the caller fills them). */
export function columnFill(
  members: readonly string[],
  encoders: readonly Convert[],
  skip: ReadonlySet<number> = NONE,
): ColumnFill {
  const body = members.flatMap((m, i) => (skip.has(i) ? [] : [`cols[${i}] = c${i}(values[${JSON.stringify(m)}]);`]));
  return (
    unrolled<ColumnFill>(encoders, 'values, cols', body) ??
    ((values, cols) => {
      for (let i = 0; i < members.length; i++) {
        if (!skip.has(i)) cols[i] = (encoders[i] as Convert)(values[members[i] as string]);
      }
    })
  );
}

const NONE: ReadonlySet<number> = new Set();

export function memberFill(
  names: readonly string[],
  sources: readonly (number | string)[],
  decoders: readonly Convert[],
): MemberFill {
  const body = names.map((m, j) => `instance[${JSON.stringify(m)}] = c${j}(row[${JSON.stringify(sources[j])}]);`);
  return (
    unrolled<MemberFill>(decoders, 'instance, row', body) ??
    ((instance, row) => {
      for (let j = 0; j < names.length; j++) {
        instance[names[j] as string] = (decoders[j] as Convert)(
          (row as Record<string | number, unknown>)[sources[j] as string],
        );
      }
    })
  );
}

/** `function (args) { body }` with the codecs bound as c0, c1, …; null where code generation is off. */
function unrolled<F>(codecs: readonly unknown[], args: string, body: readonly string[]): F | null {
  return generatedFunction<F>(
    codecs.map((_, i) => `c${i}`),
    codecs,
    args,
    body.join('\n'),
  );
}

/**
 * A row read back as an instance of `target` (prototype methods work, the constructor does not
 * run), its members set by memberFill.
 */
export function instanceReader(
  target: { readonly prototype: unknown },
  names: readonly string[],
  sources: readonly (number | string)[],
  decoders: readonly Convert[],
): (row: RowSource) => object {
  const fill = memberFill(names, sources, decoders);
  const proto = target.prototype as object;
  return (row) => {
    const instance = Object.create(proto) as Record<string, unknown>;
    fill(instance, row);
    return instance;
  };
}
