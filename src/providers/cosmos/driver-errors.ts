import { LifespanError, StoreError, type ErrorPlace } from '../../errors';
import { STORE } from './semantics';

/** HTTP status of an @azure/cosmos ErrorResponse (its numeric `code`), if the error has one. */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

export const NOT_FOUND = 404;
export const CONFLICT = 409;
export const PRECONDITION_FAILED = 412;

/** Wraps a driver failure; errors of the lifespan family pass through unchanged. */
export function wrapDriverError(error: unknown, action: string, place: ErrorPlace = {}): LifespanError {
  if (error instanceof LifespanError) return error;
  const status = statusOf(error);
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  if (status === NOT_FOUND) {
    return new StoreError('COSMOS_NOT_FOUND', `${action} failed: the database or container does not exist`, {
      ...place,
      store: STORE,
      hint: 'run ensureCollections() (or plan() and apply()) first, and check the Database object you passed',
      cause: error,
    });
  }
  return new StoreError('STORE_OPERATION_FAILED', `${action} failed${status ? ` (HTTP ${status})` : ''}: ${reason}`, {
    ...place,
    store: STORE,
    cause: error,
  });
}

/** Runs a driver call, wrapping anything it throws. */
export async function driverCall<T>(action: string, place: ErrorPlace, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw wrapDriverError(error, action, place);
  }
}
