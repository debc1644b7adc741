import { LifespanError } from '../../errors';
import { fieldOf, keyMembers, type EntityModel } from '../../model/types';
import { decoderFor, encoderFor, type Decoder, type Encoder } from './codec';
import { duplicateKey } from './drivers/driver-errors';
import type { TableSpec } from './compile';
import type { RelationalDialect } from './dialect';
import { RELATIONAL_STORE, type RelationalTtlMode } from './options';
import { TableSql, type NowMode } from './sql-context';
import type { Statement } from './statement';
import type { WriteExpiry } from './expiry';

/**
 * Everything the runtime needs for one entity, computed once per session: the SQL context,
 * value codecs in column order, and the statements built so far (one per shape, built once).
 */
export class EntityTable {
  readonly sql: TableSql;
  readonly members: readonly string[];
  readonly encoders: readonly Encoder[];
  readonly decoders: readonly Decoder[];
  readonly keyMembers: readonly string[];
  readonly keyEncoders: readonly Encoder[];
  readonly nowMode: NowMode;
  /** The expiry of a plain write when it is the same every time (database clock, not anchored). */
  readonly plainExpiry: WriteExpiry | null;
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly entity: EntityModel,
    readonly spec: TableSpec,
    readonly dialect: RelationalDialect,
    readonly mode: RelationalTtlMode,
    private readonly clock: (() => Date) | undefined,
  ) {
    const createdAt = entity.createdAt ? (fieldOf(entity, entity.createdAt)?.storedName ?? null) : null;
    this.sql = new TableSql(dialect, spec, createdAt);
    const data = this.sql.dataColumns;
    this.members = data.map((c) => c.member as string);
    this.keyMembers = keyMembers(entity);
    this.encoders = data.map((c) =>
      encoderFor(dialect, c, {
        entity: entity.name,
        member: c.member as string,
        key: this.keyMembers.includes(c.member as string),
      }),
    );
    this.decoders = data.map((c) => decoderFor(dialect, c.fieldType));
    this.keyEncoders = this.keyMembers.map((m) => this.encoders[this.members.indexOf(m)] as Encoder);
    this.nowMode = clock ? 'param' : 'db';
    const ttl = entity.ttl;
    this.plainExpiry =
      this.nowMode === 'db' && ttl?.seconds && ttl.anchor?.source !== 'explicit'
        ? Object.freeze({ source: 'nowPlus', seconds: ttl.seconds, rule: 'replace' })
        : null;
  }

  /** An insert that changed no row met a live row with its key. */
  readonly refuseDuplicate = (changes: number): void => {
    if (changes === 0) throw duplicateKey(this.entity.name);
  };

  get expiryColumn(): string | null {
    return this.sql.expiryColumn;
  }

  statement(shape: string, build: () => Statement): Statement {
    let statement = this.statements.get(shape);
    if (!statement) {
      statement = build();
      this.statements.set(shape, statement);
    }
    return statement;
  }

  /** The injected clock's instant (only when there is one). */
  now(): Date {
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
    return this.clock ? this.sql.family.encodeInstant(this.now()) : undefined;
  }

  encodeInstant(date: Date): unknown {
    return this.sql.family.encodeInstant(date);
  }

  /** The object of member values a row read back holds, in column order. */
  decodeRow(row: readonly unknown[]): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (let i = 0; i < this.members.length; i++) {
      values[this.members[i] as string] = (this.decoders[i] as Decoder)(row[i]);
    }
    return values;
  }
}
