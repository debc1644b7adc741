import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, ModelError, PartitionKey, TimeToLive, TtlError } from '../../src';
import type { EntityModel, Model } from '../../src';
import { compileCosmos, checkCosmosTtl } from '../../src/providers/cosmos/compile';
import { model as examples } from '../../examples/models';

function problemsOf(
  fn: () => unknown,
): Array<{ code: string; entity?: string | undefined; member?: string | undefined }> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ModelError)
      return error.problems.map((p) => ({ code: p.code, entity: p.entity, member: p.member }));
    throw error;
  }
  throw new Error('expected a ModelError');
}

describe('compileCosmos: containers of the example model', () => {
  const schema = compileCosmos(examples);
  const container = (id: string) => schema.containers.find((c) => c.id === id);

  it('maps an entity TTL to defaultTtl n, per-write only to -1, no TTL to an absent property', () => {
    expect(container('sessions')).toEqual({
      id: 'sessions',
      partitionKeyPath: '/id',
      defaultTtl: 3600,
      entities: ['Session'],
    });
    expect(container('carts')?.defaultTtl).toBe(7 * 86400);
    expect(container('readings')?.defaultTtl).toBe(30 * 86400);
    expect(container('cache_entries')?.defaultTtl).toBe(-1);
    expect(container('audit_log')?.defaultTtl).toBeNull();
  });

  it('makes a lone key the item id with partition key /id, and a partition + clustering key path and id', () => {
    const layout = (entity: string) => schema.layouts.find((l) => l.entity === entity);
    expect(layout('Session')).toMatchObject({ idMembers: ['id'], partitionMember: null, partitionKeyPath: '/id' });
    expect(layout('CacheEntry')).toMatchObject({ idMembers: ['key'], partitionMember: null, partitionKeyPath: '/id' });
    expect(layout('Reading')).toMatchObject({
      idMembers: ['takenAt'],
      partitionMember: 'sensorId',
      partitionKeyPath: '/sensorId',
      shared: false,
    });
  });
});

describe('compileCosmos: containers shared by several entities', () => {
  @Entity('shared')
  @TimeToLive(60)
  class A {
    @Key() id = '';
  }
  @Entity('shared')
  @TimeToLive(60)
  class B {
    @Key() id = '';
  }
  @Entity('shared')
  @TimeToLive(120)
  class C {
    @Key() id = '';
  }
  @Entity('shared')
  class D {
    @PartitionKey() tenant = '';
    @Key() id = '';
  }

  it('accepts entities that agree on TTL and partition key, and marks them shared', () => {
    const schema = compileCosmos(new ModelBuilder().entity(A).entity(B).build());
    expect(schema.containers).toEqual([
      { id: 'shared', partitionKeyPath: '/id', defaultTtl: 60, entities: ['A', 'B'] },
    ]);
    expect(schema.layouts.map((l) => l.shared)).toEqual([true, true]);
  });

  it('rejects entities that disagree on DefaultTimeToLive', () => {
    const model = new ModelBuilder().entity(A).entity(C).build();
    expect(problemsOf(() => compileCosmos(model))).toEqual([
      { code: 'COSMOS_CONTAINER_TTL_DISAGREES', entity: 'C', member: undefined },
    ]);
  });

  it('rejects a TTL and a partition key disagreement together, in one ModelError', () => {
    const model = new ModelBuilder().entity(A).entity(C).entity(D).build();
    const codes = problemsOf(() => compileCosmos(model)).map((p) => p.code);
    expect(codes).toContain('COSMOS_CONTAINER_TTL_DISAGREES');
    // D's @Key id + @PartitionKey tenant is item id `id` under /tenant, where A is under /id.
    expect(codes).toContain('COSMOS_CONTAINER_PARTITION_KEY_DISAGREES');
  });

  it('rejects a partition key path disagreement', () => {
    @Entity('pk_mix')
    class P {
      @Key() id = '';
    }
    @Entity('pk_mix')
    class Q {
      @PartitionKey() tenant = '';
      @Field() x = '';
    }
    // Q alone has partition key /id too (a lone key is the id); a clustering key moves it to /tenant.
    const ok = compileCosmos(new ModelBuilder().entity(P).entity(Q).build());
    expect(ok.containers[0]?.partitionKeyPath).toBe('/id');

    class R {
      tenant = '';
      at = new Date(0);
    }
    const model = new ModelBuilder()
      .entity(P)
      .entity(R, (e) =>
        e
          .toCollection('pk_mix')
          .key((r) => r.tenant)
          .clusteringKey((r) => r.at),
      )
      .build();
    const problems = problemsOf(() => compileCosmos(model));
    expect(problems).toEqual([{ code: 'COSMOS_CONTAINER_PARTITION_KEY_DISAGREES', entity: 'R', member: undefined }]);
  });
});

describe('compileCosmos: names and keys Cosmos cannot map', () => {
  it('rejects members stored as ttl, a system property, or id when id is not the key', () => {
    class Bad {
      key = '';
      ttl = 0;
      id = '';
    }
    const model = new ModelBuilder()
      .entity(Bad, (e) =>
        e
          .toCollection('bad')
          .key((b) => b.key)
          .field((b) => b.ttl)
          .field((b) => b.id),
      )
      .build();
    expect(problemsOf(() => compileCosmos(model))).toEqual([
      { code: 'COSMOS_RESERVED_NAME', entity: 'Bad', member: 'ttl' },
      { code: 'COSMOS_RESERVED_NAME', entity: 'Bad', member: 'id' },
    ]);
  });

  it('rejects several partition key members with guidance', () => {
    @Entity('two_parts')
    class TwoParts {
      @PartitionKey() a = '';
      @PartitionKey() b = '';
    }
    const model = new ModelBuilder().entity(TwoParts).build();
    expect(() => compileCosmos(model)).toThrow(/2 partition key members \(a, b\).*@ClusteringKey/s);
  });
});

describe('Cosmos TTL range', () => {
  it.each([1, 3600, 2147483647, -1])('accepts %p', (value) => {
    expect(checkCosmosTtl(value)).toBe(value);
  });

  it.each([0, -2, 2147483648, 1.5, Number.NaN])('rejects %p with a TtlError naming the value', (value) => {
    let thrown: unknown;
    try {
      checkCosmosTtl(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TtlError);
    expect((thrown as TtlError).code).toBe('COSMOS_TTL_OUT_OF_RANGE');
    expect((thrown as TtlError).value).toBe(value);
    expect((thrown as TtlError).message).toContain(String(value));
  });

  it('reports an entity TTL outside the range as a model problem (a hand-built model bypassing the builder)', () => {
    const session = examples.entities.find((e) => e.name === 'Session') as EntityModel;
    const broken: Model = {
      entities: [{ ...session, ttl: { ...(session.ttl as NonNullable<EntityModel['ttl']>), seconds: 0 } }],
    };
    expect(problemsOf(() => compileCosmos(broken))).toEqual([
      { code: 'COSMOS_TTL_OUT_OF_RANGE', entity: 'Session', member: undefined },
    ]);
  });
});
