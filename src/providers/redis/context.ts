import type { RedisClientLike } from './gateway';

/** What a repository, its conditional writes and a unit of work share: the client and the key prefix. */
export interface RedisContext {
  readonly client: RedisClientLike;
  readonly prefix: string;
}
