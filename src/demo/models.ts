/**
 * The example models `lifespan demo` (and `npm start`) explains and runs, and the golden explain
 * tests use (through examples/models.ts). Written as a user writes them: only the root export.
 * Session is the seed example of the design: a class-level TTL counting from @CreatedAt.
 */
import { CreatedAt, Entity, Field, Key, ModelBuilder, PartitionKey, ClusteringKey, TimeToLive, UpdatedAt } from '..';

@Entity('sessions')
@TimeToLive(3600)
export class Session {
  @Key() id = '';
  @CreatedAt() createdAt = new Date(0);
  @Field() payload = '';
}

/** Configured fluently only: expiry counts from an explicit date member. */
export class Visit {
  id = '';
  page = '';
  lastSeenAt = new Date(0);
}

/** Sliding expiry: the TTL counts from @UpdatedAt, and writes may carry their own TTL. */
@Entity('carts')
@TimeToLive({ ttl: '7d', perWrite: true })
export class Cart {
  @Key() id = '';
  @Field({ type: 'json' }) items: string[] = [];
  @UpdatedAt() updatedAt = new Date(0);
}

/** Time-series rows: partition + clustering key, a default TTL of 30 days. */
@Entity('readings')
@TimeToLive('P30D')
export class Reading {
  @PartitionKey() sensorId = '';
  @ClusteringKey('desc') @Field({ type: 'date' }) takenAt = new Date(0);
  @Field() value = 0;
  @CreatedAt() createdAt = new Date(0);
}

/** Per-write TTLs only: nothing expires unless a write says so. */
@Entity('cache_entries')
@TimeToLive({ perWrite: true })
export class CacheEntry {
  @Key() key = '';
  @Field() value = '';
}

/** No TTL at all. */
@Entity('audit_log')
export class AuditLog {
  @Key() id = '';
  @Field() message = '';
  @CreatedAt() createdAt = new Date(0);
}

export const model = new ModelBuilder()
  .entity(Session)
  .entity(Visit, (e) =>
    e
      .toCollection('visits')
      .key((v) => v.id)
      .field((v) => v.page)
      .timeToLive((v) => v.lastSeenAt, '1h'),
  )
  .entity(Cart)
  .entity(Reading)
  .entity(CacheEntry)
  .entity(AuditLog)
  .build();

export default model;
