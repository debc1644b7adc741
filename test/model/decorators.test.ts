import 'reflect-metadata';
import {
  ClusteringKey,
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  ModelError,
  PartitionKey,
  TimeToLive,
  UpdatedAt,
  type EntityModel,
} from '../../src';

function only(model: { entities: readonly EntityModel[] }): EntityModel {
  expect(model.entities).toHaveLength(1);
  return model.entities[0] as EntityModel;
}

test('@Entity names the collection; default is the class name', () => {
  @Entity('people')
  class Person {
    @Key() id = '';
  }
  @Entity()
  class Thing {
    @Key() id = '';
  }
  expect(only(new ModelBuilder().entity(Person).build()).collection).toBe('people');
  expect(only(new ModelBuilder().entity(Thing).build()).collection).toBe('Thing');
});

test('@Field reads design:type, initialisers, and explicit options', () => {
  @Entity()
  class Row {
    @Key() id!: string;
    @Field() count!: number;
    @Field() active = false;
    @Field() big = BigInt(0);
    @Field() at!: Date;
    @Field() tags: string[] = [];
    @Field({ type: 'integer', name: 'n_items', nullable: true }) items: number | null = null;
    @Field({ type: 'uuid' }) ref = '';
    @Field({ type: 'json' }) meta: unknown = {};
    @Field() blob = Buffer.alloc(0);
  }
  const entity = only(new ModelBuilder().entity(Row).build());
  expect(entity.fields).toEqual([
    { member: 'id', storedName: 'id', type: 'string', nullable: false },
    { member: 'count', storedName: 'count', type: 'number', nullable: false },
    { member: 'active', storedName: 'active', type: 'boolean', nullable: false },
    { member: 'big', storedName: 'big', type: 'bigint', nullable: false },
    { member: 'at', storedName: 'at', type: 'date', nullable: false },
    { member: 'tags', storedName: 'tags', type: 'json', nullable: false },
    { member: 'items', storedName: 'n_items', type: 'integer', nullable: true },
    { member: 'ref', storedName: 'ref', type: 'uuid', nullable: false },
    { member: 'meta', storedName: 'meta', type: 'json', nullable: false },
    { member: 'blob', storedName: 'blob', type: 'binary', nullable: false },
  ]);
});

test('@Key alone is the partition key; @PartitionKey + @ClusteringKey compose', () => {
  @Entity()
  class Single {
    @Key() id = '';
  }
  @Entity()
  class Series {
    @PartitionKey() tenant = '';
    @PartitionKey() sensor = '';
    @ClusteringKey('desc') at = new Date(0);
    @ClusteringKey() seq = 0;
  }
  const model = new ModelBuilder().entity(Single).entity(Series).build();
  expect(model.entities[0]?.key).toEqual({ partition: ['id'], clustering: [] });
  expect(model.entities[1]?.key).toEqual({
    partition: ['tenant', 'sensor'],
    clustering: [
      { member: 'at', order: 'desc' },
      { member: 'seq', order: 'asc' },
    ],
  });
});

test('@CreatedAt / @UpdatedAt are date fields and TTL anchors (createdAt first)', () => {
  @Entity()
  @TimeToLive('1h')
  class Both {
    @Key() id = '';
    @UpdatedAt() updatedAt = new Date(0);
    @CreatedAt({ name: 'created_at' }) createdAt = new Date(0);
  }
  @Entity()
  @TimeToLive('1h')
  class Sliding {
    @Key() id = '';
    @UpdatedAt() touchedAt = new Date(0);
  }
  const [both, sliding] = new ModelBuilder().entity(Both).entity(Sliding).build().entities;
  expect(both?.createdAt).toBe('createdAt');
  expect(both?.updatedAt).toBe('updatedAt');
  expect(both?.fields.find((f) => f.member === 'createdAt')).toMatchObject({ storedName: 'created_at', type: 'date' });
  expect(both?.ttl?.anchor).toEqual({ member: 'createdAt', source: 'createdAt' });
  expect(sliding?.ttl?.anchor).toEqual({ member: 'touchedAt', source: 'updatedAt' });
});

test('@TimeToLive on the class accepts every duration form and options', () => {
  @Entity()
  @TimeToLive({ days: 1 })
  class A {
    @Key() id = '';
  }
  @Entity()
  @TimeToLive('PT1H')
  class B {
    @Key() id = '';
  }
  @Entity()
  @TimeToLive({ ttl: '15m', perWrite: true, expiryField: 'expires_on' })
  class C {
    @Key() id = '';
  }
  @Entity()
  @TimeToLive({ perWrite: true })
  class D {
    @Key() id = '';
  }
  const [a, b, c, d] = new ModelBuilder().entity(A).entity(B).entity(C).entity(D).build().entities;
  expect(a?.ttl).toMatchObject({ seconds: 86400, perWrite: false, anchor: null, expiryField: 'expiresAt' });
  expect(b?.ttl?.seconds).toBe(3600);
  expect(c?.ttl).toMatchObject({ seconds: 900, perWrite: true, expiryField: 'expires_on' });
  expect(d?.ttl).toMatchObject({ seconds: null, perWrite: true, declared: 'per-write only' });
});

test('@TimeToLive on a Date member counts from that member', () => {
  @Entity()
  class Visit {
    @Key() id = '';
    @TimeToLive('90m') lastSeenAt = new Date(0);
  }
  const visit = only(new ModelBuilder().entity(Visit).build());
  expect(visit.ttl).toMatchObject({ seconds: 5400, anchor: { member: 'lastSeenAt', source: 'explicit' } });
  expect(visit.fields.find((f) => f.member === 'lastSeenAt')?.type).toBe('date');
});

test('decorators work without decorator metadata when the type is explicit (esbuild, Vite)', () => {
  // Applied by hand: no design:type metadata exists for these members.
  class Plain {
    id = '';
    createdAt = new Date(0);
    note: string | null = null;
  }
  Key({ type: 'string' })(Plain.prototype, 'id');
  CreatedAt()(Plain.prototype, 'createdAt');
  Field({ type: 'string', nullable: true })(Plain.prototype, 'note');
  TimeToLive(60)(Plain);
  Entity('plain')(Plain);
  expect(Reflect.getMetadata('design:type', Plain.prototype, 'id')).toBeUndefined();
  const entity = only(new ModelBuilder().entity(Plain).build());
  expect(entity.fields.map((f) => [f.member, f.type, f.nullable])).toEqual([
    ['id', 'string', false],
    ['createdAt', 'date', false],
    ['note', 'string', true],
  ]);
  expect(entity.ttl?.seconds).toBe(60);
});

test('a member with an ambiguous type asks for an explicit one', () => {
  class Ambiguous {
    id = '';
    note: string | null = null;
  }
  Key()(Ambiguous.prototype, 'id');
  Field()(Ambiguous.prototype, 'note');
  expect(() => new ModelBuilder().entity(Ambiguous).build()).toThrow(
    /Ambiguous.note: member has no type.*type: 'string'/s,
  );
});

test('a subclass inherits decorated members without changing its parent', () => {
  @Entity()
  class Base {
    @Key() id = '';
  }
  @Entity()
  @TimeToLive('1h')
  class Child extends Base {
    @Field() extra = '';
  }
  const [base, child] = new ModelBuilder().entity(Base).entity(Child).build().entities;
  expect(base?.fields.map((f) => f.member)).toEqual(['id']);
  expect(base?.ttl).toBeNull();
  expect(child?.fields.map((f) => f.member)).toEqual(['id', 'extra']);
  expect(child?.ttl?.seconds).toBe(3600);
});

test('no global registry: only classes given to the builder are in the model', () => {
  @Entity()
  class Forgotten {
    @Key() id = '';
  }
  @Entity()
  class Used {
    @Key() id = '';
  }
  void Forgotten;
  expect(
    new ModelBuilder()
      .entity(Used)
      .build()
      .entities.map((e) => e.name),
  ).toEqual(['Used']);
});

test('decorators only record: a broken declaration fails at build(), not at class definition', () => {
  let defined = false;
  @Entity()
  @TimeToLive('forever' as string) // a literal this wrong does not compile (test/model/duration-types.ts)
  class Broken {
    @Key() id = '';
  }
  defined = true;
  expect(defined).toBe(true);
  expect(() => new ModelBuilder().entity(Broken).build()).toThrow(ModelError);
});
