import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, LifespanError, ModelBuilder, PartitionKey } from '../../src';
import type { EntityModel } from '../../src';
import { compileCosmos } from '../../src/providers/cosmos/compile';
import { ItemCodec } from '../../src/providers/cosmos/codec';

@Entity('things')
class Thing {
  @Key({ type: 'integer' }) id = 0;
  @Field() name = '';
  @Field({ type: 'bigint' }) big = 0n;
  @Field() flag = false;
  @Field({ type: 'date' }) at = new Date(0);
  @Field({ type: 'binary' }) bytes = Buffer.alloc(0);
  @Field({ type: 'json' }) doc: unknown = {};
  @Field({ type: 'string', nullable: true }) note: string | null = null;
}

@Entity('events')
class Event {
  @PartitionKey() tenant = '';
  @ClusteringKey() day = '';
  @ClusteringKey('asc', { type: 'integer' }) seq = 0;
  @Field() body = '';
}

const model = new ModelBuilder().entity(Thing).entity(Event).build();
const schema = compileCosmos(model);
const codecOf = (name: string) => {
  const entity = model.entities.find((e) => e.name === name) as EntityModel;
  return new ItemCodec(entity, schema.layouts.find((l) => l.entity === name) as never);
};

describe('ItemCodec', () => {
  const things = codecOf('Thing');
  const events = codecOf('Event');

  it('stores JSON-safe values and reads back the same member values', () => {
    const values = {
      id: 42,
      name: 'n',
      big: 1234567890123456789n,
      flag: true,
      at: new Date('2024-05-06T07:08:09.010Z'),
      bytes: Buffer.from([1, 2, 255]),
      doc: { a: [1, 'b'] },
      note: null,
    };
    const item = things.encode(values);
    expect(item).toEqual({
      id: '42',
      name: 'n',
      big: '1234567890123456789',
      flag: true,
      at: '2024-05-06T07:08:09.010Z',
      bytes: 'AQL/',
      doc: { a: [1, 'b'] },
      note: null,
      $type: 'Thing',
    });
    expect(things.decode(JSON.parse(JSON.stringify(item)))).toEqual(values);
  });

  it('addresses a lone key by id with the id as partition key value', () => {
    expect(things.address({ id: 7 })).toEqual({ id: '7', partition: '7' });
  });

  it('addresses partition + clustering keys: partition value from the partition member, id from the clustering members', () => {
    expect(events.address({ tenant: 't1', day: '2024-01-01', seq: 3 })).toEqual({
      id: '2024-01-01|3',
      partition: 't1',
    });
    // Several id parts are percent-encoded, so a '|' inside a value cannot make two keys collide.
    expect(events.address({ tenant: 't', day: 'a|b', seq: 1 }).id).toBe('a%7Cb|1');
    expect(events.address({ tenant: 't', day: 'a/b', seq: 1 }).id).toBe('a%2Fb|1');
  });

  it.each(['a/b', 'a\\b', 'a?b', 'a#b', '', 'x'.repeat(256)])(
    'rejects the single-part id %j with COSMOS_BAD_ID',
    (id) => {
      const codec = codecOf('Event');
      const lone = new ItemCodec(codec.entity, { ...codec.layout, idMembers: ['day'] });
      expect(() => lone.address({ tenant: 't', day: id })).toThrow(LifespanError);
      expect(() => lone.address({ tenant: 't', day: id })).toThrow(/COSMOS|not allowed/);
    },
  );

  const valid = {
    id: 1,
    name: 'n',
    big: 1n,
    flag: false,
    at: new Date(0),
    bytes: Buffer.alloc(0),
    doc: {},
    note: 'x',
  };

  it('names the member and value of a value of the wrong type', () => {
    expect(() => things.encode({ ...valid, at: '2024-01-01' })).toThrow(/Thing\.at.*"2024-01-01" is not a valid Date/);
    expect(() => things.encode({ ...valid, id: 1.5 })).toThrow(/Thing\.id.*1\.5 is not a safe integer/);
    expect(() => things.encode({ ...valid, name: null })).toThrow(/not nullable/);
    expect(() => things.encode({ ...valid, name: 5 })).toThrow(/Thing\.name.*5 is not a string/);
    expect(() => things.encode({ ...valid, big: Number.NaN })).toThrow(/Thing\.big/);
    expect(() => things.encode({ ...valid, at: new Date('nope') })).toThrow(/Thing\.at.*not a valid Date/);
  });

  it.each(['name', 'big', 'flag', 'at', 'bytes', 'doc'])(
    'a missing (undefined) required member %s is VALUE_INVALID naming it, never silently left out',
    (member) => {
      const error = (() => {
        try {
          things.encode({ ...valid, [member]: undefined });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(LifespanError);
      expect(error).toMatchObject({ code: 'VALUE_INVALID', entity: 'Thing', member });
    },
  );

  it('null in a required json member is VALUE_INVALID; a missing nullable member is stored as null', () => {
    expect(() => things.encode({ ...valid, doc: null })).toThrow(/Thing\.doc.*not nullable/);
    expect(things.encode({ ...valid, note: undefined })).toMatchObject({ note: null });
  });

  it('names the preserved stored property of @CreatedAt (none without one)', () => {
    expect(things.preservedOnUpdate).toEqual([]);
  });
});
