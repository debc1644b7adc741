/**
 * The Cassandra write plan (compiled once per entity, plain data) and the row values bound with
 * it, without a server. What a unit of work sends with them: unit-of-work-statements.test.ts.
 */
import 'reflect-metadata';
import {
  ClusteringKey,
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  PartitionKey,
  TimeToLive,
  UpdatedAt,
} from '../../src';
import { compileModel, type EntityMapping } from '../../src/providers/cassandra/compile';
import { keyIdentity } from '../../src/providers/cassandra/row-plan';
import { rowParams, writeParams } from '../../src/providers/cassandra/rows';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { compileWritePlan } from '../../src/providers/cassandra/write-plan';

/** Members declared out of the column order: a regular one first, the keys after it. */
@Entity('readings')
@TimeToLive({ ttl: '1h', perWrite: true })
class Reading {
  @Field() value = 0;
  @PartitionKey({ type: 'uuid' }) sensor = '';
  @ClusteringKey('desc') @Field({ type: 'date' }) takenAt = new Date(0);
  @CreatedAt() createdAt = new Date(0);
  @UpdatedAt() updatedAt = new Date(0);
}

@Entity('sessions')
class Session {
  @Key() id = '';
  @Field() owner = '';
  @Field({ type: 'integer' }) hits = 0;
  @CreatedAt() createdAt = new Date(0);
}

const model = new ModelBuilder().entity(Reading).entity(Session).build();
const clock = { now: new Date('2026-01-01T00:00:00Z'), ceiling: CEILING_2038 };
const [readings, sessions] = compileModel(model, clock).mappings as [EntityMapping, EntityMapping];
const NOW = new Date('2026-06-01T00:00:00Z');
const SENSOR = '0f0e0d0c-0b0a-4908-8706-050403020100';

test('the write plan: column positions, key lengths, stamped members, places, compiled as frozen plain data', () => {
  expect(readings.columns.map((c) => c.member)).toEqual(['sensor', 'takenAt', 'value', 'createdAt', 'updatedAt']);
  const plan = compileWritePlan(readings);
  expect(plan).toEqual({
    columns: 5,
    keyLength: 2,
    partitionLength: 1,
    // Model order, as valuesOf reads the members.
    reads: [
      { member: 'value', column: 2 },
      { member: 'sensor', column: 0 },
      { member: 'takenAt', column: 1 },
      { member: 'createdAt', column: 3 },
      { member: 'updatedAt', column: 4 },
    ],
    createdAt: 3,
    updatedAt: 4,
    keptCreatedAt: 3,
    uuidKeys: [true, false],
    places: [
      { entity: 'Reading', member: 'sensor', store: 'cassandra', key: true },
      { entity: 'Reading', member: 'takenAt', store: 'cassandra', key: true },
      { entity: 'Reading', member: 'value', store: 'cassandra', key: false },
      { entity: 'Reading', member: 'createdAt', store: 'cassandra', key: false },
      { entity: 'Reading', member: 'updatedAt', store: 'cassandra', key: false },
    ],
  });
  expect(Object.isFrozen(plan) && Object.isFrozen(plan.reads) && Object.isFrozen(plan.places)).toBe(true);
  expect(compileWritePlan(sessions)).toMatchObject({
    columns: 4,
    keyLength: 1,
    partitionLength: 1,
    updatedAt: undefined,
  });
});

test('rowParams binds in column order, stamps as stampTimestamps does, and leaves room for the TTL', () => {
  const takenAt = new Date('2026-05-01T00:00:00Z');
  const given = Object.assign(new Reading(), { value: 1.5, sensor: SENSOR, takenAt });
  expect(rowParams(readings, given, NOW)).toEqual([SENSOR, takenAt, 1.5, NOW, NOW]);
  const created = new Date('2026-02-01T00:00:00Z');
  expect(rowParams(readings, { ...given, createdAt: created }, NOW)).toEqual([SENSOR, takenAt, 1.5, created, NOW]);
  expect(writeParams(readings, given, NOW, { using: true, seconds: 60 })).toEqual([SENSOR, takenAt, 1.5, NOW, NOW, 60]);
  expect(writeParams(readings, given, NOW, { using: false })).toHaveLength(5);
  // The instance is not changed (its placeholder createdAt stays).
  expect(given.createdAt.getTime()).toBe(0);
});

test('rowParams refuses a bad value by its member, and a getter that throws before any value check', () => {
  const bad = Object.assign(new Reading(), { value: Number.NaN, sensor: SENSOR });
  expect(() => rowParams(readings, bad, NOW)).toThrow(
    expect.objectContaining({ code: 'VALUE_INVALID', entity: 'Reading', member: 'value' }),
  );
  const throwing = Object.assign(new Reading(), { sensor: 'not-a-uuid' });
  Object.defineProperty(throwing, 'updatedAt', {
    get() {
      throw new Error('boom');
    },
  });
  // Every member is read (model order) before any is checked, as valuesOf then the codec did.
  expect(() => rowParams(readings, throwing, NOW)).toThrow(/reading member 'updatedAt' threw/);
});

test('key identity: table, then each key value (a uuid whatever its case)', () => {
  const at = new Date(5);
  expect(keyIdentity(readings, [SENSOR.toUpperCase(), at])).toBe(keyIdentity(readings, [SENSOR, at]));
  expect(keyIdentity(readings, [SENSOR, at])).toBe(`readings\u0000u${SENSOR}\u0000d5`);
  expect(keyIdentity(sessions, ['1'])).not.toBe(keyIdentity(sessions, [1]));
});
