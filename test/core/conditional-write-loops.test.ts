/**
 * Issue 26 part 2, review findings 8 and 13: the one patch retry loop and getOrInsert's retry, as
 * every store runs them (src/runtime), with the provider's native write replaced by a recorded one.
 */
import 'reflect-metadata';
import { Entity, ErrorCodes, Field, Key, ModelBuilder, StoreError, Version } from '../../src';
import { insertElseGet } from '../../src/runtime/get-or-insert';
import { duplicateKey } from '../../src/runtime/key-errors';
import { PATCH_ATTEMPTS, retryPatch } from '../../src/runtime/versioned-writes';

@Entity('loops')
class Loop {
  @Key() token = '';
  @Field() text = '';
  @Version() version = 0;
}

const entity = new ModelBuilder().entity(Loop).build().entities[0] as never;
const place = { entity, store: 'somestore', collection: 'loops' };

test('a patch that meets another write at every attempt is one typed STORE_WRITE_CONTENDED with a retry hint', async () => {
  let attempts = 0;
  const error = await retryPatch(place, () => {
    attempts += 1;
    return Promise.resolve({ raced: new Error('412') });
  }).catch((e: unknown) => e);
  expect(attempts).toBe(PATCH_ATTEMPTS);
  expect(error).toBeInstanceOf(StoreError);
  expect(error).toMatchObject({ code: ErrorCodes.STORE_WRITE_CONTENDED, store: 'somestore', entity: 'Loop' });
  expect((error as StoreError).hint).toMatch(/retry the patch\(\)/);
});

test('false is only "no live record": an attempt that finds none ends the loop at once', async () => {
  let attempts = 0;
  const result = await retryPatch(place, () => {
    attempts += 1;
    return Promise.resolve(attempts === 1 ? { raced: undefined } : 'absent');
  });
  expect(result).toBe(false);
  expect(attempts).toBe(2);
});

const duplicate = (hit: 'key' | 'unique-constraint') =>
  duplicateKey({ store: 'somestore', entity, collection: 'loops', hit });

test('getOrInsert does not retry a unique violation of another member: it stands at once', async () => {
  let inserts = 0;
  const error = await insertElseGet(
    place,
    new Loop(),
    () => {
      inserts += 1;
      return Promise.reject(duplicate('unique-constraint'));
    },
    () => Promise.resolve(undefined),
  ).catch((e: unknown) => e);
  expect(inserts).toBe(1);
  expect(error).toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
});

test('getOrInsert whose key is taken and gone at each try says so for getOrInsert(), naming members, not values', async () => {
  const given = Object.assign(new Loop(), { token: 'secret-token-value' });
  const error = await insertElseGet(
    place,
    given,
    () => Promise.reject(duplicate('key')),
    () => Promise.resolve(undefined),
  ).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
  const { message, hint } = error as StoreError;
  expect(message).toMatch(/getOrInsert\(\) into/);
  expect(message).toContain('token');
  expect(`${message} ${hint}`).not.toMatch(/use upsert\(\)|secret-token-value/);
});
