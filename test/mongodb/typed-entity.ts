import 'reflect-metadata';
import { Entity, Field, Key } from '../../src';

/** Members whose BSON form differs from the JS value (int64, binary). */
@Entity('blobs')
export class Blob {
  @Key() id = '';
  @Field() size = 0;
  @Field({ type: 'bigint' }) big = 0n;
  @Field({ type: 'binary' }) bytes = Buffer.alloc(0);
}

/** One member of each checked type, one nullable: what a write, a key and a filter must match. */
@Entity('typed')
export class Typed {
  @Key() id = '';
  @Field({ type: 'number' }) n = 0;
  @Field({ type: 'integer' }) count = 0;
  @Field({ type: 'date' }) when = new Date('2026-01-01T00:00:00Z');
  @Field({ type: 'boolean' }) flag = false;
  @Field({ type: 'json' }) meta: unknown = {};
  @Field({ type: 'string', nullable: true }) note: string | null = null;
}
