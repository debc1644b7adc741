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
