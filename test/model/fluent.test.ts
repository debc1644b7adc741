import 'reflect-metadata';
import {
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  ModelError,
  TimeToLive,
  type EntityConfigurator,
  type EntityModel,
} from '../../src';

class Visit {
  id = '';
  tenant = '';
  page = '';
  count = 0;
  lastSeenAt = new Date(0);
  createdAt = new Date(0);
  updatedAt = new Date(0);
}

function build(configure: (e: EntityConfigurator<Visit>) => unknown): EntityModel {
  return new ModelBuilder().entity(Visit, configure).build().entities[0] as EntityModel;
}

test('every fluent call', () => {
  const visit = new ModelBuilder()
    .entity(Visit, (e) =>
      e
        .toCollection('visits')
        .partitionKey((v) => v.tenant)
        .clusteringKey((v) => v.lastSeenAt, 'desc')
        .clusteringKey((v) => v.id)
        .field((v) => v.page, { name: 'page_path', nullable: true })
        .field((v) => v.count, { type: 'integer' })
        .createdAt((v) => v.createdAt)
        .updatedAt((v) => v.updatedAt)
        .timeToLive((v) => v.lastSeenAt, '1h', { perWrite: true, expiryField: 'expires_on' }),
    )
    .build().entities[0];
  expect(visit).toMatchObject({
    name: 'Visit',
    collection: 'visits',
    key: {
      partition: ['tenant'],
      clustering: [
        { member: 'lastSeenAt', order: 'desc' },
        { member: 'id', order: 'asc' },
      ],
    },
    createdAt: 'createdAt',
    updatedAt: 'updatedAt',
    ttl: {
      seconds: 3600,
      anchor: { member: 'lastSeenAt', source: 'explicit' },
      perWrite: true,
      expiryField: 'expires_on',
    },
  });
  expect(visit?.fields.find((f) => f.member === 'page')).toEqual({
    member: 'page',
    storedName: 'page_path',
    type: 'string',
    nullable: true,
  });
  expect(visit?.fields.find((f) => f.member === 'count')?.type).toBe('integer');
});

test('.key() sets a single-member key; .timeToLive takes every form', () => {
  expect(build((e) => e.key((v) => v.id).timeToLive(60)).ttl?.seconds).toBe(60);
  expect(build((e) => e.key((v) => v.id).timeToLive({ minutes: 2 })).ttl?.seconds).toBe(120);
  expect(build((e) => e.key((v) => v.id).timeToLive('PT3M')).ttl?.seconds).toBe(180);
  expect(build((e) => e.key((v) => v.id).timeToLive('1h', { perWrite: true })).ttl).toMatchObject({
    seconds: 3600,
    perWrite: true,
  });
  expect(build((e) => e.key((v) => v.id).timeToLive({ perWrite: true })).ttl).toMatchObject({
    seconds: null,
    perWrite: true,
  });
  expect(build((e) => e.key((v) => v.id)).key).toEqual({ partition: ['id'], clustering: [] });
});

describe('fluent wins over decorators for the same setting', () => {
  @Entity('sessions')
  @TimeToLive(3600)
  class Session {
    @Key() id = '';
    @Field() owner = '';
    @CreatedAt() createdAt = new Date(0);
    @Field({ name: 'data' }) payload = '';
  }

  test('collection, key, field options and TTL', () => {
    const session = new ModelBuilder()
      .entity(Session, (e) =>
        e
          .toCollection('web_sessions')
          .key((s) => s.owner)
          .field((s) => s.payload, { name: 'body', nullable: true })
          .timeToLive('15m'),
      )
      .build().entities[0];
    expect(session?.collection).toBe('web_sessions');
    expect(session?.key.partition).toEqual(['owner']);
    expect(session?.fields.find((f) => f.member === 'payload')).toMatchObject({ storedName: 'body', nullable: true });
    expect(session?.ttl?.seconds).toBe(900);
    expect(session?.ttl?.anchor).toEqual({ member: 'createdAt', source: 'createdAt' });
  });

  test('the decorated class itself is not changed by fluent configuration', () => {
    new ModelBuilder().entity(Session, (e) => e.timeToLive('1m')).build();
    expect(new ModelBuilder().entity(Session).build().entities[0]?.ttl?.seconds).toBe(3600);
  });

  test('a member-level decorated TTL is replaced by a fluent one', () => {
    @Entity()
    class Tracked {
      @Key() id = '';
      @TimeToLive('1d') seenAt = new Date(0);
    }
    const tracked = new ModelBuilder().entity(Tracked, (e) => e.timeToLive('2h')).build().entities[0];
    expect(tracked?.ttl).toMatchObject({ seconds: 7200, anchor: null });
  });
});

test('a selector must read exactly one member', () => {
  expect(() => new ModelBuilder().entity(Visit, (e) => e.key((v) => `${v.id}${v.tenant}`)).build()).toThrow(
    /a member selector must read exactly one member \(read: id, tenant\)/,
  );
});

test('one ModelError lists every problem of every entity', () => {
  class Broken {
    id = '';
    at = '';
    when = new Date(0);
  }
  @Entity('bad name!')
  @TimeToLive('1h')
  @TimeToLive('2h')
  class Twice {
    @Field() x = '';
  }
  let error: ModelError | undefined;
  try {
    new ModelBuilder()
      .entity(Broken, (e) =>
        e
          .key((b) => b.when)
          .field((b) => b.id, { type: 'nope' as never })
          .timeToLive((b) => b.at as unknown as Date, '1h'),
      )
      .entity(Twice)
      .build();
  } catch (caught) {
    error = caught as ModelError;
  }
  expect(error).toBeInstanceOf(ModelError);
  const codes = error?.problems.map((p) => `${p.entity}.${p.member ?? ''}:${p.code}`);
  expect(codes).toEqual([
    'Broken.id:MODEL_UNKNOWN_TYPE',
    'Broken.at:MODEL_TTL_MEMBER_NOT_DATE',
    'Twice.:MODEL_BAD_NAME',
    'Twice.:MODEL_NO_KEY',
    'Twice.:MODEL_TTL_DECLARED_TWICE',
  ]);
  expect(error?.message).toMatch(/^The model has 5 problems:/);
  expect(error?.message).toContain("Broken.at: the TTL counts from 'at', which is string, not a Date");
  expect(error?.message).toContain('mark the identifying member with @Key()');
});

test('a class with neither decorators nor configuration is reported', () => {
  class Nothing {}
  expect(() => new ModelBuilder().entity(Nothing).build()).toThrow(
    /Nothing: has neither decorators nor fluent configuration/,
  );
});

test('bad TTL values surface as model problems naming the value', () => {
  expect(() => new ModelBuilder().entity(Visit, (e) => e.key((v) => v.id).timeToLive(-1)).build()).toThrow(
    /Visit: TTL -1 is negative/,
  );
});

describe('option values are checked at build()', () => {
  const bad = (configure: (e: EntityConfigurator<Visit>) => unknown) => () =>
    new ModelBuilder().entity(Visit, (e) => configure(e.key((v) => v.id))).build();

  test('a duration mixed into TTL options', () => {
    expect(bad((e) => e.timeToLive({ hours: 1, perWrite: true } as never))).toThrow(
      /TTL option 'hours' is not an option \(put the duration in ttl/,
    );
  });
  test('a misspelt TTL option', () => {
    expect(bad((e) => e.timeToLive({ ttl: '1h', perwrite: true } as never))).toThrow(
      /TTL option 'perwrite' is not an option.*MODEL_TTL_OPTIONS/s,
    );
  });
  test('perWrite that is not a boolean', () => {
    expect(bad((e) => e.timeToLive('1h', { perWrite: 'no' as never }))).toThrow(/perWrite must be true or false/);
  });
  test('nullable that is not a boolean', () => {
    expect(bad((e) => e.field((v) => v.page, { nullable: 'yes' as never }))).toThrow(/nullable must be true or false/);
  });
  test('a stored name that is not a string is a model problem, not a crash', () => {
    expect(bad((e) => e.field((v) => v.count, { name: 5 as never }))).toThrow(/stored name 5 is not allowed/);
  });
  test('a clustering order other than asc/desc', () => {
    expect(bad((e) => e.clusteringKey((v) => v.lastSeenAt, 'up' as never))).toThrow(
      /clustering order "up" is not 'asc' or 'desc'/,
    );
  });
  test('a selector that reads deeper than one member', () => {
    expect(bad((e) => e.field((v) => v.page.length))).toThrow(/read: page, length/);
  });
});
