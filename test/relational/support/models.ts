/**
 * Test entities for the relational suites. Tables get a per-suite prefix so that suites running in
 * parallel against the same run database never share a table.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, ModelBuilder, TimeToLive, UpdatedAt, type Model } from '../../../src';
import { AuditLog, CacheEntry, Cart, Reading, Session, Visit } from '../../../examples/models';

export { AuditLog, CacheEntry, Cart, Reading, Session, Visit };

/** Every value kind the relational provider stores, nullable members included. */
@Entity('values')
export class Sample {
  @Key() id = '';
  @Field() text = '';
  @Field() real = 0;
  @Field({ type: 'integer' }) whole = 0;
  @Field() big = 0n;
  @Field() flag = false;
  @Field() at = new Date(0);
  @Field({ type: 'json' }) doc: unknown = {};
  @Field({ type: 'binary' }) bytes = Buffer.alloc(0);
  @Field({ type: 'uuid' }) ref = '00000000-0000-0000-0000-000000000000';
  @Field({ type: 'string', nullable: true }) note: string | null = null;
  @Field({ type: 'json', nullable: true }) extra: unknown = null;
}

/** A short default TTL counted from the last write, with both timestamps. */
@Entity('tokens')
@TimeToLive(10)
export class Token {
  @Key() id = '';
  @Field() owner = '';
  @CreatedAt() createdAt = new Date(0);
  @UpdatedAt() updatedAt = new Date(0);
}

/** The example model (seed entities) plus the test entities, every table under `prefix`. */
export function testModel(prefix: string): Model {
  return testBuilder(prefix).build();
}

/** testModel with more fluent configuration laid over it (e.g. another TTL for one entity). */
export function testModelWith(prefix: string, change: (builder: ModelBuilder) => ModelBuilder): Model {
  return change(testBuilder(prefix)).build();
}

function testBuilder(prefix: string): ModelBuilder {
  const table = (name: string) => `${prefix}_${name}`;
  // The suites write per-write TTLs on these entities, which every store asks to be declared.
  const perWrite = { perWrite: true } as const;
  return new ModelBuilder()
    .entity(Session, (e) => e.toCollection(table('sessions')).timeToLive(3600, perWrite))
    .entity(Visit, (e) =>
      e
        .toCollection(table('visits'))
        .key((v) => v.id)
        .field((v) => v.page)
        .timeToLive((v) => v.lastSeenAt, '1h', perWrite),
    )
    .entity(Cart, (e) => e.toCollection(table('carts')))
    .entity(Reading, (e) => e.toCollection(table('readings')).timeToLive('P30D', perWrite))
    .entity(CacheEntry, (e) => e.toCollection(table('cache')))
    .entity(AuditLog, (e) => e.toCollection(table('audit')))
    .entity(Sample, (e) => e.toCollection(table('values')))
    .entity(Token, (e) => e.toCollection(table('tokens')).timeToLive(10, perWrite));
}

export function make<T extends object>(cls: new () => T, values: Partial<T>): T {
  return Object.assign(new cls(), values);
}
