import type { ContainerDefinition, Database } from '@azure/cosmos';
import { driverCall, NOT_FOUND, statusOf } from './driver-errors';
import type { ContainerTtl } from './item-expiry';
import type { ServerClock } from './server-clock';

/** A container as the service reports it, in the shape compile() produces. */
export interface LiveContainer {
  readonly id: string;
  readonly exists: boolean;
  readonly partitionKeyPaths: readonly string[];
  readonly defaultTtl: ContainerTtl;
  readonly etag: string | undefined;
  /** Every property read, without system properties (_rid, _etag, ...): what a replace keeps. */
  readonly definition: ContainerDefinition;
  /** The server's clock (epoch seconds of the response's Date header), when it sent one. */
  readonly serverNow?: number;
}

/** Reads a container; a 404 (container or database missing) is `exists: false`. */
export async function inspectContainer(database: Database, id: string, clock?: ServerClock): Promise<LiveContainer> {
  let dateHeader: unknown;
  const response = await driverCall(`reading container '${id}'`, {}, async () => {
    try {
      const read = await database.container(id).read();
      dateHeader = read.headers?.['date'];
      return read;
    } catch (error) {
      if (statusOf(error) !== NOT_FOUND) throw error;
      dateHeader = (error as { headers?: Record<string, unknown> }).headers?.['date'];
      return undefined;
    }
  });
  const serverNow = clock?.observe(dateHeader);
  const seen = serverNow === undefined ? {} : { serverNow };
  const resource = response?.resource;
  if (!resource) {
    return { id, exists: false, partitionKeyPaths: [], defaultTtl: null, etag: undefined, definition: { id }, ...seen };
  }
  return {
    id,
    exists: true,
    partitionKeyPaths: resource.partitionKey?.paths ?? [],
    defaultTtl: typeof resource.defaultTtl === 'number' ? resource.defaultTtl : null,
    etag: resource._etag,
    definition: withoutSystemProperties(resource),
    ...seen,
  };
}

export function inspectContainers(
  database: Database,
  ids: readonly string[],
  clock?: ServerClock,
): Promise<LiveContainer[]> {
  return Promise.all(ids.map((id) => inspectContainer(database, id, clock)));
}

/** Whether the database exists (a container read cannot tell a missing database from a missing container). */
export async function databaseExists(database: Database): Promise<boolean> {
  return driverCall(`reading database '${database.id}'`, {}, async () => {
    try {
      await database.read();
      return true;
    } catch (error) {
      if (statusOf(error) === NOT_FOUND) return false;
      throw error;
    }
  });
}

/** Whether the container holds at least one item (one TOP 1 query). */
export async function holdsItems(database: Database, id: string): Promise<boolean> {
  const { resources } = await driverCall(`looking for items in '${id}'`, {}, () =>
    database.container(id).items.query<unknown>('SELECT TOP 1 c.id FROM c').fetchAll(),
  );
  return resources.length > 0;
}

function withoutSystemProperties(resource: object): ContainerDefinition {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => !key.startsWith('_'))) as ContainerDefinition;
}
