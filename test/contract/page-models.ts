/** The entities of the findPage / iterate / deleteMany contract (issue 26), the same on every store. */
import 'reflect-metadata';
import { ClusteringKey, Entity, Field, Key, ModelBuilder, PartitionKey, TimeToLive } from '../../src';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
export class Item {
  @Key() id = '';
  @Field() group = '';
  @Field({ type: 'integer' }) n = 0;
}

/** A compound key: the partition member and a numeric clustering member. */
@Entity()
export class Line {
  @PartitionKey() orderId = '';
  @ClusteringKey() line = 0;
  @Field() sku = '';
}

export function pageModel(prefix: string) {
  return new ModelBuilder()
    .entity(Item, (e) => e.toCollection(`${prefix}_item`))
    .entity(Line, (e) => e.toCollection(`${prefix}_line`))
    .build();
}

export const item = (id: string, group: string, n = 0): Item => Object.assign(new Item(), { id, group, n });

export const line = (orderId: string, n: number): Line => Object.assign(new Line(), { orderId, line: n, sku: `s${n}` });

/** Zero-padded ids, so key order is the order they were made in. */
export const ids = (head: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${head}${String(i).padStart(2, '0')}`);
