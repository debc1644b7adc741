import type { ContainerDefinition, Database } from '@azure/cosmos';
import { StoreError } from '../../errors';
import { describeDefaultTtl, type ContainerSpec } from './compile';
import { createBody } from './commands';
import { CONFLICT, PRECONDITION_FAILED, statusOf, wrapDriverError } from './driver-errors';
import type { ContainerTtl } from './item-expiry';
import { inspectContainer } from './inspect';
import { STORE } from './semantics';

const REPLACE_ATTEMPTS = 3;

/** Creates the database; false when it exists (made meanwhile by another process). */
export async function createDatabase(database: Database): Promise<boolean> {
  try {
    await database.client.databases.create({ id: database.id });
    return true;
  } catch (error) {
    if (statusOf(error) === CONFLICT) return false;
    throw wrapDriverError(error, `creating database '${database.id}'`);
  }
}

/** Creates the container; false when a concurrent creator made the same container first. */
export async function createContainer(database: Database, spec: ContainerSpec): Promise<boolean> {
  try {
    await database.containers.create(createBody(spec) as ContainerDefinition);
    return true;
  } catch (error) {
    if (statusOf(error) !== CONFLICT) throw wrapDriverError(error, `creating container '${spec.id}'`);
  }
  const live = await inspectContainer(database, spec.id);
  if (live.partitionKeyPaths[0] === spec.partitionKeyPath && live.defaultTtl === spec.defaultTtl) return false;
  throw stale(
    spec.id,
    `it was created meanwhile with partition key ${live.partitionKeyPaths.join(', ')} and DefaultTimeToLive ${describeDefaultTtl(live.defaultTtl)}`,
  );
}

/**
 * One in-place container replace: the definition just read (partition key, indexing policy and every
 * other property) with only defaultTtl changed, sent with If-Match on the etag read, so a concurrent
 * change to the container is never overwritten with stale values.
 */
export async function replaceDefaultTtl(
  database: Database,
  id: string,
  from: ContainerTtl,
  to: ContainerTtl,
): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    const live = await inspectContainer(database, id);
    if (!live.exists) throw stale(id, 'the container no longer exists');
    if (live.defaultTtl === to) return false;
    if (live.defaultTtl !== from) {
      throw stale(
        id,
        `its DefaultTimeToLive is ${describeDefaultTtl(live.defaultTtl)}, the plan was made for ${describeDefaultTtl(from)}`,
      );
    }
    const { defaultTtl: _old, ...rest } = live.definition;
    const body: ContainerDefinition = to === null ? rest : { ...rest, defaultTtl: to };
    try {
      await database
        .container(id)
        .replace(body, live.etag ? { accessCondition: { type: 'IfMatch', condition: live.etag } } : undefined);
      return true;
    } catch (error) {
      if (statusOf(error) !== PRECONDITION_FAILED || attempt >= REPLACE_ATTEMPTS) {
        throw wrapDriverError(error, `replacing container '${id}'`);
      }
    }
  }
}

function stale(container: string, why: string): StoreError {
  return new StoreError('COSMOS_PLAN_STALE', `container '${container}' changed since the plan was made: ${why}`, {
    store: STORE,
    hint: 'make a new plan() and review it before apply()',
  });
}
