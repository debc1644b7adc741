import { LifespanError, StoreError } from '../../errors';
import { STORE } from './semantics';

/**
 * The one method lifespan calls on the caller's client: node-redis 5/6 `client.sendCommand(args)`
 * (a `RedisClientType`; lifespan never connects or closes it). Raw commands keep lifespan on the
 * server's own vocabulary (SET … NX EX, KEEPTTL, EXPIRE … GT) whatever the driver's helper names.
 */
export interface RedisClientLike {
  sendCommand(args: readonly string[]): Promise<unknown>;
}

/** Where a failing call happened, for the error that wraps it. */
export interface CallPlace {
  readonly entity?: string | undefined;
  readonly operation: string;
}

export async function call<R>(client: RedisClientLike, args: readonly string[], place: CallPlace): Promise<R> {
  try {
    return (await client.sendCommand(args)) as R;
  } catch (error) {
    throw operationFailed(error, place);
  }
}

export function operationFailed(error: unknown, place: CallPlace): unknown {
  if (error instanceof LifespanError) return error;
  return new StoreError('STORE_OPERATION_FAILED', `${place.operation} failed: ${serverMessage(error)}`, {
    entity: place.entity,
    store: STORE,
    cause: error,
    hint: 'check the connection, the user\u2019s ACL permissions and maxmemory (a full server refuses writes)',
  });
}

export function serverMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
