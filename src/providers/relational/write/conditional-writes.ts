import type { PerWriteTtl, ResolvedWriteTtl } from '../../../model/per-write-ttl';
import { fieldOf } from '../../../model/types';
import { conditionalWriteOptions, patchChanges } from '../../../runtime/conditional-writes';
import { runDeleteIfVersion, runUpdate, type ConditionalPlace } from '../../../runtime/versioned-writes';
import type { KeyInput } from '../../contract';
import type { Encoder } from '../codec';
import type { EntityTable } from '../table/entity-table';
import type { Executor } from '../drivers/executor';
import { resolveTtl, storedRowExpiry, writeExpiry, type StoredAnchorExpiry } from './expiry-resolver';
import type { WriteExpiry } from './write-expiry';
import { RELATIONAL_STORE } from '../options';
import { deleteVersioned, expiryShape, liveAtVersion, patchRow, updateVersioned } from './conditional-sql';
import { anchorColumn, anchoredExpiryDue } from './ttl-ops';
import { existsByKey } from '../read/read-sql';
import { bind, type Statement } from '../table/statement';
import { encodeKey, encodeRow } from './write-ops';

/**
 * update(), delete({ ifVersion }) and patch() on one table: one statement each, its WHERE holding
 * the key, the condition and the live filter (an expired row is absent: version 0). The row count
 * tells whether it matched.
 */
export class RelationalConditionalWrites {
  private readonly versionColumn: string | null;

  constructor(
    private readonly t: EntityTable,
    private readonly executor: Executor,
  ) {
    const version = t.entity.version;
    this.versionColumn = version ? (fieldOf(t.entity, version)?.storedName ?? version) : null;
  }

  update(entity: object, options: unknown): Promise<void> {
    const t = this.t;
    return runUpdate(this.place, entity, options, async ({ ttl, expected, next }) => {
      const versionColumn = this.versionColumn as string;
      const row = encodeRow(t, next);
      const resolved = resolveTtl(t, ttl);
      // An update never writes @CreatedAt (the stored one stays): a TTL counting from it counts
      // from the stored column, as setTtl does, whatever the instance holds.
      const expiry =
        t.countsFrom !== null && t.countsFrom === t.entity.createdAt
          ? storedRowExpiry(t, resolved)
          : writeExpiry(t, resolved, row.values);
      const anchor = expiry.source === 'anchorPlus' ? anchorColumn(t, expiry.member) : null;
      const statement = t.statement(`update-version:${expiryShape(expiry)}`, () =>
        updateVersioned(t, t.nowMode, versionColumn, expiry, anchor),
      );
      const key = t.keyIndexes.map((i) => row.cols[i]);
      const params = bind(statement, {
        cols: row.cols,
        key,
        args: [this.encodeVersion(expected)],
        now: t.nowParam(),
        seconds: expiry.seconds,
        expiry: 'value' in expiry ? expiry.value : undefined,
      });
      if ((await this.run(statement, params)) > 0) return true;
      // Counted from the stored @CreatedAt, the update changes nothing when that is already due: a
      // live row of the expected version is then refused loudly rather than made to vanish.
      if (expiry.source === 'anchorPlus' && (await this.liveAt(key, expected))) {
        throw anchoredExpiryDue(t, expiry.member, expiry.seconds, 'update()');
      }
      return false;
    }).then(() => undefined);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  deleteIfVersion(key: KeyInput<unknown>, options: unknown): Promise<boolean | undefined> {
    const t = this.t;
    const encoded = (): unknown[] => encodeKey(t, key);
    return runDeleteIfVersion(this.place, options, {
      exists: async () => {
        const statement = t.statement('exists', () => existsByKey(t, t.nowMode));
        return (await this.executor.rows(statement, bind(statement, { key: encoded(), now: t.nowParam() }))).length > 0;
      },
      deleteAt: async (version) => {
        const versionColumn = this.versionColumn as string;
        const statement = t.statement('delete-version', () => deleteVersioned(t, t.nowMode, versionColumn));
        const params = bind(statement, { key: encoded(), args: [this.encodeVersion(version)], now: t.nowParam() });
        return (await this.executor.run(statement, params)) > 0;
      },
    });
  }

  async patch(key: KeyInput<unknown>, changes: unknown, options: unknown): Promise<boolean> {
    const t = this.t;
    const { ttl } = conditionalWriteOptions(options, 'patch()', t.entity, RELATIONAL_STORE);
    const members = patchChanges(t.entity, changes, RELATIONAL_STORE);
    const encodedKey = encodeKey(t, key);
    const indexes = Object.keys(members).map((m) => t.members.indexOf(m));
    const columns = indexes.map((i) => t.dataColumns[i]?.name as string);
    const args = indexes.map((i) => (t.encoders[i] as Encoder)(members[t.members[i] as string]));
    const expiry = this.patchExpiry(ttl, members);
    const anchor = expiry?.source === 'anchorPlus' ? anchorColumn(t, expiry.member) : null;
    const shape = `patch:${columns.join(',')}:${expiryShape(expiry)}`;
    const statement = t.statement(shape, () => patchRow(t, t.nowMode, columns, this.versionColumn, expiry, anchor));
    const params = bind(statement, {
      key: encodedKey,
      args,
      now: t.nowParam(),
      seconds: expiry?.seconds,
      expiry: expiry && 'value' in expiry ? expiry.value : undefined,
    });
    return (await this.run(statement, params)) > 0;
  }

  /**
   * A patch keeps the expiry unless a ttl is given; an anchored default counts from the stored
   * anchor. A patch that changes the anchor member itself counts the default from its new value
   * (bound as the expiry: PostgreSQL and SQLite evaluate SET on the old row, MariaDB on the new).
   */
  private patchExpiry(
    ttl: PerWriteTtl | undefined,
    members: Record<string, unknown>,
  ): (WriteExpiry | StoredAnchorExpiry) | null {
    const resolved: ResolvedWriteTtl = ttl === undefined ? KEEP : resolveTtl(this.t, ttl);
    const anchor = this.t.entity.ttl?.anchor;
    const movesAnchor = anchor?.source === 'explicit' && anchor.member in members;
    if (movesAnchor && (resolved.kind === 'keep' || resolved.kind === 'default')) {
      return writeExpiry(this.t, DEFAULT, members);
    }
    return resolved.kind === 'keep' ? null : storedRowExpiry(this.t, resolved);
  }

  /** One statement: synchronously on SQLite (no promise chained), a unique violation in the shared wording. */
  private async run(statement: Statement, params: unknown[]): Promise<number> {
    try {
      const sync = this.executor.trySync();
      return sync ? sync.runSync(statement, params) : await this.executor.run(statement, params);
    } catch (error) {
      throw this.t.duplicateOf(error);
    }
  }

  /** Whether the live row of the (encoded) key holds `version`. */
  private async liveAt(key: unknown[], version: number): Promise<boolean> {
    const t = this.t;
    const statement = t.statement('live-at-version', () => liveAtVersion(t, t.nowMode, this.versionColumn as string));
    const params = bind(statement, { key, args: [this.encodeVersion(version)], now: t.nowParam() });
    return (await this.executor.rows(statement, params)).length > 0;
  }

  private encodeVersion(version: number): unknown {
    const t = this.t;
    return (t.encoders[t.members.indexOf(t.entity.version as string)] as Encoder)(version);
  }

  private get place(): ConditionalPlace {
    return { entity: this.t.entity, store: RELATIONAL_STORE, collection: this.t.spec.table };
  }
}

const KEEP: ResolvedWriteTtl = Object.freeze({ kind: 'keep' });
const DEFAULT: ResolvedWriteTtl = Object.freeze({ kind: 'default' });
