/**
 * Overwrites against the real node: an upsert keeps the stored @CreatedAt (written again with the
 * write's TTL, so the row still expires as a whole), and a unit of work reduces the operations on
 * one row to the statement that has their effect, commits once, and never re-sends.
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import {
  ClusteringKey,
  CreatedAt,
  Entity,
  ErrorCodes,
  Field,
  PartitionKey,
  TimeToLive,
  UpdatedAt,
  type StoreContext,
} from '../../src';
import { Session } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { build, cellTtl, open, useTestKeyspace } from './fixtures';

/** Rows of one partition (a conditional batch can hold them all), stamped both ways. */
@Entity('notes')
@TimeToLive('1h')
class Note {
  @PartitionKey() book = '';
  @ClusteringKey('asc') @Field({ type: 'integer' }) line = 0;
  @Field() text = '';
  @CreatedAt() createdAt = new Date(0);
  @UpdatedAt() updatedAt = new Date(0);
}

// Session declares perWrite here: the suite writes per-write TTLs, which every store asks to be declared.
const model = build((b) => b.entity(Session, (e) => e.timeToLive(3600, { perWrite: true })).entity(Note));

const T1 = new Date('2026-02-03T04:05:06.000Z');
const T2 = new Date('2026-02-03T05:05:06.000Z');

function session(id: string, payload = 'p', createdAt = new Date(0)): Session {
  return Object.assign(new Session(), { id, payload, createdAt });
}

function note(book: string, line: number, text: string): Note {
  return Object.assign(new Note(), { book, line, text });
}

describeStore('cassandra', 'cassandra overwrites and units of work (live)', () => {
  let client: Client;
  let keyspace: string;
  let db: StoreContext;
  /** The instant @CreatedAt / @UpdatedAt are stamped with. */
  let now = T1;

  useTestKeyspace('ls_writes', async (live) => {
    ({ client, keyspace } = live);
    db = await open(client, keyspace, model, { now: () => now });
    await db.ensureCollections();
  });

  beforeEach(() => {
    now = T1;
  });

  const createdAtOf = async (id: string) => (await db.repository(Session).get(id))?.createdAt;

  it('upsert keeps the stored @CreatedAt and writes it again with the TTL of the rest of the row', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(session('a', 'first'));
    now = T2;
    await sessions.upsert(session('a', 'second'), { ttl: '10m' });
    expect(await sessions.get('a')).toMatchObject({ payload: 'second', createdAt: T1 });
    for (const column of ['createdAt', 'payload']) {
      const ttl = await cellTtl(client, keyspace, 'sessions', 'id', 'a', column);
      expect([column, ttl! > 590 && ttl! <= 600]).toEqual([column, true]);
    }
    // An explicit value does not replace the stored one either (the record exists).
    await sessions.upsert(session('a', 'third', new Date('2020-01-01T00:00:00Z')));
    expect(await createdAtOf('a')).toEqual(T1);

    // A row that is not there is created, stamped now.
    await sessions.upsert(session('b'));
    expect(await createdAtOf('b')).toEqual(T2);
    // A deleted row is not there: the next upsert creates it anew.
    await sessions.delete('b');
    now = new Date(T2.getTime() + 1000);
    await sessions.upsert(session('b'));
    expect(await createdAtOf('b')).toEqual(now);
  });

  it('@UpdatedAt follows every write while @CreatedAt stays, also in a unit of work', async () => {
    const notes = db.repository(Note);
    await notes.insert(note('n1', 1, 'one'));
    await notes.upsert(note('n2', 1, 'other book'));
    now = T2;
    await db
      .unitOfWork()
      .upsert(note('n1', 1, 'one, edited'))
      .upsert(note('n2', 1, 'edited too'))
      .commit();
    expect(await notes.get({ book: 'n1', line: 1 })).toMatchObject({
      text: 'one, edited',
      createdAt: T1,
      updatedAt: T2,
    });
    expect(await notes.get({ book: 'n2', line: 1 })).toMatchObject({ createdAt: T1, updatedAt: T2 });
    // A single-statement unit of work takes the same path.
    await db
      .unitOfWork()
      .upsert(note('n1', 1, 'alone'))
      .commit();
    expect(await notes.get({ book: 'n1', line: 1 })).toMatchObject({ text: 'alone', createdAt: T1 });
  });

  it('delete then insert of one row in a unit of work replaces the row (not a duplicate)', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(session('d1', 'old'), { ttl: 'never' });
    await sessions.insert(session('d2', 'old'));
    now = T2;
    // Across partitions (d1, d2, fresh): the inserts are checked by a read, then one batch.
    await db
      .unitOfWork()
      .delete(Session, 'd1')
      .insert(session('d1', 'new'), { ttl: '10m' })
      .delete(Session, 'd2')
      .upsert(session('d2', 'new'))
      .insert(session('fresh', 'new'))
      .commit();
    expect(await sessions.get('d1')).toMatchObject({ payload: 'new', createdAt: T2 });
    const ttl = await sessions.ttl('d1');
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    expect(await sessions.get('d2')).toMatchObject({ payload: 'new', createdAt: T2 });
    expect(await sessions.exists('fresh')).toBe(true);

    // The same as one statement.
    await db.unitOfWork().delete(Session, 'd1').insert(session('d1', 'newer')).commit();
    expect((await sessions.get('d1'))?.payload).toBe('newer');

    // Within one partition: a conditional batch (the other line's insert is still checked).
    const notes = db.repository(Note);
    await notes.insert(note('p', 1, 'old'));
    await db
      .unitOfWork()
      .delete(Note, { book: 'p', line: 1 })
      .insert(note('p', 1, 'new'))
      .insert(note('p', 2, 'two'))
      .commit();
    expect((await notes.find({ book: 'p' })).map((n) => n.text)).toEqual(['new', 'two']);
    await expect(
      db
        .unitOfWork()
        .delete(Note, { book: 'p', line: 1 })
        .insert(note('p', 1, 'x'))
        .insert(note('p', 2, 'y'))
        .commit(),
    ).rejects.toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY });
    expect((await notes.find({ book: 'p' })).map((n) => n.text)).toEqual(['new', 'two']);
  });

  it('runs the operations on one row as if one by one: a second insert of a row it wrote is a duplicate', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(session('kept', 'stored'));
    const duplicate = { code: ErrorCodes.STORE_DUPLICATE_KEY, name: 'StoreError' };
    // Inserting a stored key and then deleting it fails at the insert: the stored row is not deleted.
    await expect(db.unitOfWork().insert(session('kept', 'x')).delete(Session, 'kept').commit()).rejects.toMatchObject(
      duplicate,
    );
    expect((await sessions.get('kept'))?.payload).toBe('stored');
    await expect(
      db.unitOfWork().insert(session('kept', 'x')).delete(Session, 'kept').insert(session('other')).commit(),
    ).rejects.toMatchObject(duplicate);
    expect(await sessions.get('kept')).toBeDefined();
    // Of a key that is not stored, the same is fine and leaves nothing.
    await db.unitOfWork().insert(session('gone', 'x')).delete(Session, 'gone').commit();
    expect(await sessions.exists('gone')).toBe(false);

    await expect(db.unitOfWork().insert(session('twice')).insert(session('twice')).commit()).rejects.toMatchObject(
      duplicate,
    );
    await expect(
      db.unitOfWork().upsert(session('twice')).insert(session('twice')).upsert(session('bystander')).commit(),
    ).rejects.toMatchObject(duplicate);
    expect(await sessions.getMany(['twice', 'bystander'])).toEqual([]);

    // An insert then upserts of a new row: it must be absent, and keeps the inserted @CreatedAt.
    const at = new Date('2025-12-31T00:00:00Z');
    now = T2;
    await db
      .unitOfWork()
      .insert(session('built', 'v1', at))
      .upsert(session('built', 'v2'))
      .commit();
    expect(await sessions.get('built')).toMatchObject({ payload: 'v2', createdAt: at });
  });
});
