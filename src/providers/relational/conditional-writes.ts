import type { PerWriteTtl, ResolvedWriteTtl } from '../../model/per-write-ttl';
import { fieldOf } from '../../model/types';
import { entityArgument } from '../../runtime/arguments';
import {
  conditionalWriteOptions,
  deleteOptions,
  expectedVersion,
  patchChanges,
  setVersion,
  versionConflict,
} from '../../runtime/conditional-writes';
import type { KeyInput } from '../contract';
import type { Encoder } from './codec';
import type { EntityTable } from './entity-table';
import type { Executor } from './drivers/executor';
import { resolveTtl, storedRowExpiry, writeExpiry, type StoredAnchorExpiry, type WriteExpiry } from './expiry-resolver';
import { RELATIONAL_STORE } from './options';
import { deleteVersioned, expiryShape, patchRow, updateVersioned } from './sql-conditional';
import { existsByKey } from './sql-read';
import { bind, type Statement } from './statement';
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

  async update(entity: object, options: unknown): Promise<void> {
    const t = this.t;
    const { ttl } = conditionalWriteOptions(options, 'update()', t.entity, RELATIONAL_STORE);
    const given = entityArgument(entity, 'update()', t.entity, RELATIONAL_STORE);
    const expected = expectedVersion(t.entity, given, RELATIONAL_STORE);
    const versionColumn = this.versionColumn as string;
    // The caller's entity gets the new version only once it is stored.
    const next = { ...(given as Record<string, unknown>), [t.entity.version as string]: expected + 1 };
    const row = encodeRow(t, next);
    const expiry = writeExpiry(t, resolveTtl(t, ttl), row.values);
    const statement = t.statement(`update-version:${expiryShape(expiry)}`, () =>
      updateVersioned(t, t.nowMode, versionColumn, expiry, null),
    );
    const params = bind(statement, {
      cols: row.cols,
      key: t.keyIndexes.map((i) => row.cols[i]),
      args: [this.encodeVersion(expected)],
      now: t.nowParam(),
      seconds: expiry.seconds,
      expiry: expiry.value,
    });
    const changes = await this.run(statement, params);
    if (changes === 0) throw this.conflict('update()', expected);
    copyStamps(t, row.values, given);
    setVersion(t.entity, given, expected + 1);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  async deleteIfVersion(key: KeyInput<unknown>, options: unknown): Promise<boolean | undefined> {
    const t = this.t;
    const { ifVersion } = deleteOptions(options, t.entity, RELATIONAL_STORE);
    if (ifVersion === undefined) return undefined;
    const encoded = encodeKey(t, key);
    if (ifVersion === 0) {
      // Version 0 is no record: nothing to delete, and a live one is a conflict.
      const statement = t.statement('exists', () => existsByKey(t, t.nowMode));
      const rows = await this.executor.rows(statement, bind(statement, { key: encoded, now: t.nowParam() }));
      if (rows.length > 0) throw this.conflict('delete()', 0);
      return false;
    }
    const versionColumn = this.versionColumn as string;
    const statement = t.statement('delete-version', () => deleteVersioned(t, t.nowMode, versionColumn));
    const params = bind(statement, { key: encoded, args: [this.encodeVersion(ifVersion)], now: t.nowParam() });
    if ((await this.executor.run(statement, params)) === 0) throw this.conflict('delete()', ifVersion);
    return true;
  }

  async patch(key: KeyInput<unknown>, changes: unknown, options: unknown): Promise<boolean> {
    const t = this.t;
    const { ttl } = conditionalWriteOptions(options, 'patch()', t.entity, RELATIONAL_STORE);
    const members = patchChanges(t.entity, changes, RELATIONAL_STORE);
    const encodedKey = encodeKey(t, key);
    const indexes = Object.keys(members).map((m) => t.members.indexOf(m));
    const columns = indexes.map((i) => t.dataColumns[i]?.name as string);
    const args = indexes.map((i) => (t.encoders[i] as Encoder)(members[t.members[i] as string]));
    const expiry = this.patchExpiry(ttl);
    const anchor = expiry?.source === 'anchorPlus' ? (fieldOf(t.entity, expiry.member)?.storedName ?? null) : null;
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

  /** A patch keeps the expiry unless a ttl is given; an anchored default counts from the stored anchor. */
  private patchExpiry(ttl: PerWriteTtl | undefined): (WriteExpiry | StoredAnchorExpiry) | null {
    if (ttl === undefined) return null;
    const resolved: ResolvedWriteTtl = resolveTtl(this.t, ttl);
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

  private encodeVersion(version: number): unknown {
    const t = this.t;
    return (t.encoders[t.members.indexOf(t.entity.version as string)] as Encoder)(version);
  }

  private conflict(call: 'update()' | 'delete()', expected: number) {
    return versionConflict({
      store: RELATIONAL_STORE,
      entity: this.t.entity,
      collection: this.t.spec.table,
      call,
      expected,
    });
  }
}

/** The @UpdatedAt stamped on the written copy, onto the caller's entity (as insert/upsert leave it). */
function copyStamps(t: EntityTable, written: Record<string, unknown>, given: object): void {
  const member = t.entity.updatedAt;
  if (member) (given as Record<string, unknown>)[member] = written[member];
}
