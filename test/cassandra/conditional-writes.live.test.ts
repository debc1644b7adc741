/**
 * Issue 26 on the real node: a patch and a versioned update never tear a row. Every non-key
 * column's TTL() is the same afterwards (the version cell too), whatever the patch changed.
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive, Version, type StoreContext } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { cassandraClient, createTestKeyspace, dropKeyspace } from '../harness/cassandra';
import { describeStore } from '../harness/stores';

@Entity('cw_profiles')
@TimeToLive({ ttl: 3600, perWrite: true })
class Profile {
  @Key() id = '';
  @Field() name = '';
  @Field() city = '';
  @Version() version = 0;
}

@Entity('cw_notes')
@TimeToLive({ ttl: 3600, perWrite: true })
class Note {
  @Key() id = '';
  @Field() text = '';
  @Field() tag = '';
}

/** A counter table: changed by increments only, so no conditional rewrite. */
@Entity('cw_counts')
class Count {
  @Key() page = '';
  @Field({ type: 'counter' }) views = 0;
}

describeStore('cassandra', 'cassandra conditional writes keep one TTL per row', () => {
  let client: Client;
  let keyspace: string;
  let db: StoreContext;

  beforeAll(async () => {
    client = await cassandraClient();
    keyspace = await createTestKeyspace(client, 'cwttl');
    db = await connect(
      new ModelBuilder().entity(Profile).entity(Note).entity(Count).build(),
      new CassandraStore({ client, keyspace }),
    );
    await db.ensureCollections();
  });
  afterAll(async () => {
    await db.close();
    await dropKeyspace(client, keyspace);
    await client.shutdown();
  });

  async function ttls(table: string, columns: string[], id: string): Promise<Array<number | null>> {
    const select = columns.map((c) => `TTL(${c})`).join(', ');
    const result = await client.execute(`SELECT ${select} FROM ${keyspace}.${table} WHERE id = ?`, [id], {
      prepare: true,
    });
    const row = result.rows[0];
    return columns.map((_c, i) => row?.get(i) as number | null);
  }

  test('after a versioned patch and update every column has one TTL', async () => {
    const profiles = db.repository(Profile);
    await profiles.insert(Object.assign(new Profile(), { id: 'p', name: 'n', city: 'c' }), { ttl: 600 });
    expect(await profiles.patch('p', { city: 'd' })).toBe(true);
    let [name, city, version] = await ttls('cw_profiles', ['name', 'city', 'version'], 'p');
    expect(city).toBe(name);
    expect(version).toBe(name);
    expect(name).toBeGreaterThan(590);
    expect(name).toBeLessThanOrEqual(600);
    const read = (await profiles.get('p')) as Profile;
    expect(read).toMatchObject({ city: 'd', version: 2 });
    await profiles.update(Object.assign(read, { name: 'm' }), { ttl: 120 });
    [name, city, version] = await ttls('cw_profiles', ['name', 'city', 'version'], 'p');
    expect([city, version]).toEqual([name, name]);
    expect(name).toBeLessThanOrEqual(120);
    expect(name).toBeGreaterThan(110);
  });

  test('a patch of a row without @Version rewrites every column with the TTL the row has left', async () => {
    const notes = db.repository(Note);
    await notes.insert(Object.assign(new Note(), { id: 'n', text: 't', tag: 'x' }), { ttl: 300 });
    expect(await notes.patch('n', { tag: 'y' })).toBe(true);
    const [text, tag] = await ttls('cw_notes', ['text', 'tag'], 'n');
    expect(tag).toBe(text);
    expect(text).toBeGreaterThan(290);
    expect(await notes.patch('n', { text: 'u' }, { ttl: 'never' })).toBe(true);
    expect(await ttls('cw_notes', ['text', 'tag'], 'n')).toEqual([null, null]);
  });

  test('a counter table refuses getOrInsert and patch up front with CASSANDRA_COUNTER_WRITE, as setTtl does', async () => {
    const counts = db.repository(Count);
    const refused = { code: 'CASSANDRA_COUNTER_WRITE', entity: 'Count', store: 'cassandra' };
    await expect(counts.patch('home', { views: 3 })).rejects.toMatchObject(refused);
    await expect(counts.getOrInsert(Object.assign(new Count(), { page: 'home' }))).rejects.toMatchObject(refused);
    const rows = await client.execute(`SELECT page FROM ${keyspace}.cw_counts`);
    expect(rows.rows).toHaveLength(0);
  });
});
