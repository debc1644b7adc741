import 'reflect-metadata';
import { Entity, Key, Field, CreatedAt, TimeToLive, ModelBuilder, ModelError } from '../../src';

@Entity('sessions')
@TimeToLive(3600)
class Session {
  @Key() id = '';
  @CreatedAt() createdAt = new Date(0);
  @Field() payload = '';
}

class Visit {
  id = '';
  lastSeenAt = new Date(0);
}

test('builds decorated and fluent entities', () => {
  const model = new ModelBuilder()
    .entity(Session)
    .entity(Visit, (e) => e.toCollection('visits').key((v) => v.id, { type: 'string' }).timeToLive((v) => v.lastSeenAt, '1h'))
    .build();
  const [session, visit] = model.entities;
  expect(session?.ttl).toMatchObject({ seconds: 3600, anchor: { member: 'createdAt', source: 'createdAt' } });
  expect(visit?.ttl).toMatchObject({ seconds: 3600, anchor: { member: 'lastSeenAt', source: 'explicit' } });
  expect(visit?.fields.map((f) => [f.member, f.type])).toEqual([
    ['id', 'string'],
    ['lastSeenAt', 'date'],
  ]);
  expect(Object.isFrozen(model)).toBe(true);
});

test('lists several problems', () => {
  class Bad {
    x = 1;
  }
  expect(() => new ModelBuilder().entity(Bad, (e) => e.field((b) => b.x).timeToLive(0)).build()).toThrow(ModelError);
});
