import { StoreError } from '../../errors';
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
import { instanceOf } from '../../runtime/entity-values';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { GetOrInsertResult, KeyInput } from '../contract';
import { decodeRecord, encodeRecord, parseStored } from './codec';
import type { KeyspaceMapping } from './compile';
import { COMPARE_AND_SET_SCRIPT, VERSIONED_DELETE_SCRIPT, VERSIONED_SET_SCRIPT } from './conditional-scripts';
import { call } from './gateway';
import { keyOf } from './keys';
import { encodeEntity } from './records';
import type { RedisContext } from './repository';
import { runScript } from './scripts';
import { STORE } from './semantics';
import { createdAtPattern, insertCommand, redisTtl, type RedisTtl } from './writes';

/** A patch whose record keeps changing under it gives up after this many reads. */
const PATCH_ATTEMPTS = 10;

/**
 * update(), delete({ ifVersion }) and patch() as one script each (the check and the write with
 * nothing in between); getOrInsert() as one `SET … NX GET` (Redis 7.0+), which either writes the
 * key or returns what it holds. An expired key is absent to all of them.
 */
export class RedisConditionalWrites<T> {
  private readonly keepCreatedAt: string;

  constructor(
    private readonly ctx: RedisContext,
    private readonly mapping: KeyspaceMapping,
  ) {
    this.keepCreatedAt = createdAtPattern(mapping);
  }

  async update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'update()', mapping.entity, STORE);
    const given = entityArgument(entity, 'update()', mapping.entity, STORE);
    const expected = expectedVersion(mapping.entity, given, STORE);
    const next = { ...(given as Record<string, unknown>), [mapping.entity.version as string]: expected + 1 };
    const { key, value } = encodeEntity(this.ctx.prefix, mapping, next);
    const { mode, seconds } = this.ttlOf(ttl);
    const args = [this.versionField, String(expected), value, mode, String(seconds), this.keepCreatedAt];
    const done = await runScript(this.ctx.client, VERSIONED_SET_SCRIPT, [key], args, this.place('update'));
    if (done !== 1) throw this.conflict('update()', expected);
    setVersion(mapping.entity, given, expected + 1);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  async deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const { ifVersion } = deleteOptions(options, this.mapping.entity, STORE);
    if (ifVersion === undefined) return undefined;
    const name = this.key(key);
    if (ifVersion === 0) {
      const exists = await call<number>(this.ctx.client, ['EXISTS', name], this.place('delete'));
      if (exists === 1) throw this.conflict('delete()', 0);
      return false;
    }
    const args = [this.versionField, String(ifVersion)];
    const done = await runScript(this.ctx.client, VERSIONED_DELETE_SCRIPT, [name], args, this.place('delete'));
    if (done !== 1) throw this.conflict('delete()', ifVersion);
    return true;
  }

  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T;
    setVersion(mapping.entity, given as object, 1);
    const { key, value } = encodeEntity(this.ctx.prefix, mapping, given as object);
    const command = [...insertCommand(key, value, this.ttlOf(ttl)), 'GET'];
    const stored = await call<string | null>(this.ctx.client, command, this.place('getOrInsert'));
    if (stored === null) return { entity: given, inserted: true };
    return { entity: this.materialise(key, stored), inserted: false };
  }

  /** Read, change the members, write back only if the key still holds what was read ('keep': KEEPTTL). */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'patch()', mapping.entity, STORE);
    const members = patchChanges(mapping.entity, changes, STORE);
    const { mode, seconds } = ttl === undefined ? KEEP : this.ttlOf(ttl);
    const name = this.key(key);
    for (let attempt = 1; attempt <= PATCH_ATTEMPTS; attempt += 1) {
      const text = await call<string | null>(this.ctx.client, ['GET', name], this.place('patch'));
      if (text === null) return false;
      const values = { ...decodeRecord(mapping, name, parseStored(mapping, name, text)), ...members };
      const version = mapping.entity.version;
      if (version !== null) values[version] = Number(values[version] ?? 0) + 1;
      const args = [text, encodeRecord(mapping, values), mode, String(seconds)];
      const done = await runScript(this.ctx.client, COMPARE_AND_SET_SCRIPT, [name], args, this.place('patch'));
      if (done !== -1) return done === 1;
    }
    throw new StoreError('STORE_OPERATION_FAILED', `patch on '${mapping.collection}': the record kept changing`, {
      entity: mapping.entity.name,
      store: STORE,
      hint: `other writers changed it ${PATCH_ATTEMPTS} times while it was patched; retry later`,
    });
  }

  private ttlOf(ttl: unknown): RedisTtl {
    return redisTtl(this.mapping, writeTtlFor(this.mapping.entity, ttl as never, STORE));
  }

  private get versionField(): string {
    const member = this.mapping.entity.version as string;
    return fieldOf(this.mapping.entity, member)?.storedName ?? member;
  }

  private key(key: KeyInput<T>): string {
    return keyOf(this.ctx.prefix, this.mapping, key as KeyInput<unknown>);
  }

  private materialise(key: string, text: string): T {
    return instanceOf<T>(this.mapping.entity, decodeRecord(this.mapping, key, parseStored(this.mapping, key, text)));
  }

  private place(operation: string) {
    return { entity: this.mapping.entity.name, operation: `${operation} on '${this.mapping.collection}'` };
  }

  private conflict(call: 'update()' | 'delete()', expected: number) {
    const { mapping } = this;
    return versionConflict({ store: STORE, entity: mapping.entity, collection: mapping.collection, call, expected });
  }
}

const KEEP: RedisTtl = Object.freeze({ mode: 'keep', seconds: 0 });
