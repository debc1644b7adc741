import { fieldOf } from '../../model/types';
import { entityArgument } from '../../runtime/arguments';
import { conditionalWriteOptions, patchChanges, storedVersion } from '../../runtime/conditional-writes';
import {
  adoptVersion,
  retryPatch,
  runDeleteIfVersion,
  runUpdate,
  withInitialVersion,
  type ConditionalPlace,
} from '../../runtime/versioned-writes';
import { instanceOf } from '../../runtime/entity-values';
import { writeTtlFor } from '../../runtime/write-ttl';
import type { GetOrInsertResult, KeyInput } from '../contract';
import { decodeRecord, encodeRecord, parseStored } from './codec';
import type { KeyspaceMapping } from './compile';
import { COMPARE_AND_SET_SCRIPT, VERSIONED_DELETE_SCRIPT, VERSIONED_SET_SCRIPT } from './conditional-scripts';
import { call } from './gateway';
import { keyOf } from './keys';
import { encodeEntity } from './records';
import type { RedisContext } from './context';
import { runScript } from './scripts';
import { STORE } from './semantics';
import { createdAtPattern, insertCommand, redisTtl, type RedisTtl } from './writes';

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

  update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    return runUpdate(this.conditionalPlace, entity, options, async ({ ttl, expected, next }) => {
      const { key, value } = encodeEntity(this.ctx.prefix, mapping, next);
      const { mode, seconds } = this.ttlOf(ttl);
      const args = [this.versionField, String(expected), value, mode, String(seconds), this.keepCreatedAt];
      return (await runScript(this.ctx.client, VERSIONED_SET_SCRIPT, [key], args, this.place('update'))) === 1;
    }).then(() => undefined);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const name = (): string => this.key(key);
    return runDeleteIfVersion(this.conditionalPlace, options, {
      exists: async () => (await call<number>(this.ctx.client, ['EXISTS', name()], this.place('delete'))) === 1,
      deleteAt: async (version) => {
        const args = [this.versionField, String(version)];
        return (await runScript(this.ctx.client, VERSIONED_DELETE_SCRIPT, [name()], args, this.place('delete'))) === 1;
      },
    });
  }

  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T & object;
    const record = withInitialVersion(mapping.entity, given);
    const { key, value } = encodeEntity(this.ctx.prefix, mapping, record);
    const command = [...insertCommand(key, value, this.ttlOf(ttl)), 'GET'];
    const stored = await call<string | null>(this.ctx.client, command, this.place('getOrInsert'));
    if (stored !== null) return { entity: this.materialise(key, stored), inserted: false };
    adoptVersion(mapping.entity, given, record);
    return { entity: given, inserted: true };
  }

  /** Read, change the members, write back only if the key still holds what was read ('keep': KEEPTTL). */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'patch()', mapping.entity, STORE);
    const members = patchChanges(mapping.entity, changes, STORE);
    const { mode, seconds } = ttl === undefined ? KEEP : this.ttlOf(ttl);
    const name = this.key(key);
    return retryPatch(this.conditionalPlace, async () => {
      const text = await call<string | null>(this.ctx.client, ['GET', name], this.place('patch'));
      if (text === null) return 'absent';
      const values = { ...decodeRecord(mapping, name, parseStored(mapping, name, text)), ...members };
      const version = mapping.entity.version;
      if (version !== null) values[version] = storedVersion(values[version]) + 1;
      const args = [text, encodeRecord(mapping, values), mode, String(seconds)];
      const done = await runScript(this.ctx.client, COMPARE_AND_SET_SCRIPT, [name], args, this.place('patch'));
      return done === 1 ? 'written' : done === 0 ? 'absent' : { raced: undefined };
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

  private get conditionalPlace(): ConditionalPlace {
    return { entity: this.mapping.entity, store: STORE, collection: this.mapping.collection };
  }
}

const KEEP: RedisTtl = Object.freeze({ mode: 'keep', seconds: 0 });
