import { LifespanError } from '../../../errors';
import { fieldOf, keyMembers, type EntityModel } from '../../../model/types';
import { duplicateKey, type CommitOutcome, type DuplicateHit } from '../../../runtime/key-errors';
import { converterFor, decoderFor, encoderFor, type Decoder, type Encoder } from '../codec';
import { hitsPrimaryKey, UniqueViolation } from '../drivers/driver-errors';
import type { TableSpec } from '../compile';
import type { RelationalDialect } from '../families/dialects';
import { RELATIONAL_STORE, type RelationalTtlMode } from '../options';
import type { Statement } from './statement';
import { TableSql, type NowMode } from './table-sql';
import type { DefaultTtl } from '../schema/ttl-anchor';
import { compiledDecoder, compiledEncoder, rowEncoder, rowToInstance, type RowEncoder } from './row-codec';

/**
 * Everything the runtime needs for one entity, computed once per session: the table's SQL layout,
 * value codecs in column order, the clock, and the statements built so far (one per shape, built once).
 */
export class EntityTable extends TableSql {
  readonly members: readonly string[];
  readonly encoders: readonly Encoder[];
  readonly decoders: readonly Decoder[];
  readonly keyMembers: readonly string[];
  readonly keyEncoders: readonly Encoder[];
  /** A row's member values as bound column values, in column order (every value checked). */
  readonly encodeCols: RowEncoder;
  /** The @CreatedAt and @UpdatedAt members' positions in encodeCols' output; -1 without one. */
  readonly createdAtCol: number;
  readonly updatedAtCol: number;
  /** encodeCols without those two positions (a write fills them: write/timestamps.ts); null when there are none. */
  readonly encodeUnstamped: RowEncoder | null;
  /** A row read back as an instance of the entity class. */
  readonly instanceOfRow: (row: readonly unknown[]) => object;
  readonly nowMode: NowMode;
  /**
   * The default TTL rows of this table are written with, from the table spec alone (the one source
   * of its seconds); null when the table keeps no expiry or declares only per-write TTLs.
   */
  readonly defaultTtl: DefaultTtl | null;
  /** The member a declared default TTL counts from (an explicit anchor), else null: read per write. */
  readonly countsFrom: string | null;
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly entity: EntityModel,
    spec: TableSpec,
    dialect: RelationalDialect,
    readonly mode: RelationalTtlMode,
    private readonly clock: (() => Date) | undefined,
  ) {
    super(dialect, spec, entity.createdAt ? (fieldOf(entity, entity.createdAt)?.storedName ?? null) : null);
    const data = this.dataColumns;
    this.members = data.map((c) => c.member as string);
    this.keyMembers = keyMembers(entity);
    // Compiled per member type (row-codec.ts): the same checks and refusals as the generic codecs.
    this.encoders = data.map((c) =>
      compiledEncoder(
        c.fieldType,
        converterFor(this.family, c.fieldType),
        encoderFor(dialect, c, {
          entity: entity.name,
          member: c.member as string,
          key: this.keyMembers.includes(c.member as string),
        }),
      ),
    );
    this.decoders = data.map((c) => compiledDecoder(c.fieldType, decoderFor(dialect, c.fieldType)));
    this.encodeCols = rowEncoder(this.members, this.encoders);
    this.createdAtCol = entity.createdAt ? this.members.indexOf(entity.createdAt) : -1;
    this.updatedAtCol = entity.updatedAt ? this.members.indexOf(entity.updatedAt) : -1;
    const stamped = [this.createdAtCol, this.updatedAtCol].filter((i) => i >= 0);
    this.encodeUnstamped = stamped.length > 0 ? rowEncoder(this.members, this.encoders, new Set(stamped)) : null;
    this.instanceOfRow = rowToInstance(entity, this.members, this.decoders);
    this.keyEncoders = this.keyMembers.map((m) => this.encoders[this.members.indexOf(m)] as Encoder);
    this.nowMode = clock ? 'param' : 'db';
    const { ttlSeconds: seconds, ttlAnchor: anchor } = spec;
    this.defaultTtl = seconds !== null && anchor !== null ? Object.freeze({ seconds, anchor }) : null;
    this.countsFrom = this.defaultTtl?.anchor.kind === 'member' ? this.defaultTtl.anchor.member : null;
  }

  /** An insert that changed no row met a live row with its key (the conflict target is the primary key). */
  readonly refuseDuplicate = (changes: number): void => {
    if (changes === 0) throw new UniqueViolation(this.entity.name, undefined, true);
  };

  /**
   * A unique violation of a write to this table in the one wording of every store: the record's key
   * when the driver (or the row count) says the primary key was hit, else "a unique constraint";
   * `unitHoldsKey` says (asked only then) whether the unit of work itself wrote that key earlier.
   * Any other error as it is.
   */
  duplicateOf(error: unknown, unitOfWork?: CommitOutcome, unitHoldsKey: () => boolean = () => false): unknown {
    if (!(error instanceof UniqueViolation)) return error;
    const { entity, spec } = this;
    const hit: DuplicateHit =
      error.keyHit || hitsPrimaryKey(error.cause, spec.table, this.keyColumns)
        ? unitHoldsKey()
          ? 'inserted-twice'
          : 'key'
        : 'unique-constraint';
    return duplicateKey({
      store: RELATIONAL_STORE,
      entity,
      collection: spec.table,
      hit,
      unitOfWork,
      cause: error.cause,
    });
  }

  /** `build` gets the table: a hot path passes a module-level builder, no closure per call. */
  statement(shape: string, build: (t: this) => Statement): Statement {
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = build(this);
      this.statements.set(shape, statement);
    }
    return statement;
  }

  /** The injected clock's instant (only when there is one). */
  clockNow(): Date {
    const now = (this.clock as () => Date)();
    if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
      throw new LifespanError('RELATIONAL_BAD_CLOCK', 'the clock option returned something other than a valid Date', {
        store: RELATIONAL_STORE,
        entity: this.entity.name,
        hint: 'clock must return the current instant as a Date',
      });
    }
    return now;
  }

  /** The bound value of "now" for statements in 'param' mode; undefined on the database clock. */
  nowParam(): unknown {
    return this.clock ? this.family.encodeInstant(this.clockNow()) : undefined;
  }

  encodeInstant(date: Date): unknown {
    return this.family.encodeInstant(date);
  }
}
