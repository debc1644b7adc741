import 'reflect-metadata';
import { Entity, Field, Key, TimeToLive } from '../../src';

/** A default TTL and no date member: MongoDB has nothing to count it from. */
@Entity('cache')
@TimeToLive('1h')
export class Cache {
  @Key() key = '';
  @Field() value = '';
}
