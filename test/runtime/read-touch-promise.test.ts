/**
 * A repository's get() without read options hands back the store's own promise (issue 29: the
 * read-touch wrapper was an async function, so every get of every store waited two microtask
 * turns more for its promise to adopt the store's — about 5 % of a SQLite get by key).
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder } from '../../src';
import type { Repository } from '../../src/providers/contract';
import { withReadTouch } from '../../src/runtime/touching-repository';
import { findEntity } from '../../src/model/types';

@Entity()
class Note {
  @Key() id = '';
  @Field() text = '';
}

const entity = findEntity(new ModelBuilder().entity(Note).build(), Note)!;
const stored = Object.assign(new Note(), { id: 'n1', text: 'kept' });
const inner = {
  get: () => Promise.resolve(stored),
  getMany: () => Promise.resolve([stored]),
} as unknown as Repository<Note>;

test('get() without options returns the store repository own promise', () => {
  const own = Promise.resolve(stored);
  const repo = withReadTouch({ ...inner, get: () => own } as Repository<Note>, entity, 'test');
  expect(repo.get('n1')).toBe(own);
});

test('get() resolves on the first microtask turn, as the store promise does', async () => {
  const repo = withReadTouch(inner, entity, 'test');
  let seen: Note | undefined;
  void repo.get('n1').then((found) => (seen = found));
  await null;
  expect(seen).toBe(stored);
});

test('bad read options are a rejected promise, not a throw', async () => {
  const repo = withReadTouch(inner, entity, 'test');
  const read = repo.get('n1', { tuoch: '1h' } as never);
  await expect(read).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
});

test('getMany() without options returns the store repository own promise', () => {
  const own = Promise.resolve([stored]);
  const repo = withReadTouch({ ...inner, getMany: () => own } as Repository<Note>, entity, 'test');
  expect(repo.getMany(['n1'])).toBe(own);
});
