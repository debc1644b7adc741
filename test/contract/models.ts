/** The entities of the contract suite: one per concern, the same on every store. */
import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, ModelBuilder, PartitionKey, TimeToLive } from '../../src';

/** One member of every field type a value can be checked against. */
@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
export class Sample {
  @Key() id = '';
  @Field({ type: 'string' }) text = '';
  @Field({ type: 'integer' }) count = 0;
  @Field({ type: 'number' }) ratio = 0;
  @Field({ type: 'bigint' }) big = 0n;
  @Field({ type: 'uuid', nullable: true }) ref: string | null = null;
  @Field({ type: 'boolean' }) flag = false;
  @Field({ type: 'date' }) at = new Date('2026-01-01T00:00:00Z');
  @Field({ type: 'json', nullable: true }) data: unknown = null;
  @Field({ type: 'binary', nullable: true }) bytes: Buffer | null = null;
}

/** A compound key: partition member + clustering member. */
@Entity()
export class Order {
  @PartitionKey() userId = '';
  @ClusteringKey() id = '';
  @Field() total = 0;
}

export function contractModel(prefix: string) {
  return new ModelBuilder()
    .entity(Sample, (e) => e.toCollection(`${prefix}_sample`))
    .entity(Order, (e) => e.toCollection(`${prefix}_order`))
    .build();
}

export const sample = (id: string, values: Partial<Record<keyof Sample, unknown>> = {}): Sample =>
  Object.assign(new Sample(), { id, text: 't', count: 1, ratio: 0.5, big: 5n, flag: true }, values);

export const order = (userId: string, id: string, total: number): Order =>
  Object.assign(new Order(), { userId, id, total });

/** An offer at two app versions: its expiry a duration (`timeToLive('30d')`), or its validUntil member. */
export class Offer {
  id = '';
  createdAt: Date | null = null;
  validUntil: Date | null = null;
}

export function offerModel(version: 'duration' | 'member', collection = 'Offer') {
  return new ModelBuilder()
    .entity(Offer, (e) => {
      e.toCollection(collection)
        .key((o) => o.id)
        .createdAt((o) => o.createdAt)
        .field((o) => o.validUntil, { type: 'date', nullable: true });
      if (version === 'duration') e.timeToLive('30d');
      else e.expiresAt((o) => o.validUntil);
    })
    .build();
}
