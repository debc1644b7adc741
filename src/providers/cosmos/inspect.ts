import type { ContainerDefinition, Database } from '@azure/cosmos';
import { driverCall, NOT_FOUND, statusOf } from './driver-errors';
import type { ContainerTtl } from './expiry';

/** A container as the service reports it, in the shape compile() produces. */
export interface LiveContainer {
  readonly id: string;
  readonly exists: boolean;
  readonly partitionKeyPaths: readonly string[];
  readonly defaultTtl: ContainerTtl;
  readonly etag: string | undefined;
  /** Every property read, without system properties (_rid, _etag, ...): what a replace keeps. */
  readonly definition: ContainerDefinition;
}

export async function inspectContainer(database: Database, id: string): Promise<LiveContainer> {
  const response = await driverCall(`reading container '${id}'`, {}, async () => {
    try {
      return await database.container(id).read();
    } catch (error) {
      if (statusOf(error) === NOT_FOUND) return undefined;
      throw error;
    }
  });
  const resource = response?.resource;
  if (!resource)
    return { id, exists: false, partitionKeyPaths: [], defaultTtl: null, etag: undefined, definition: { id } };
  return {
    id,
    exists: true,
    partitionKeyPaths: resource.partitionKey?.paths ?? [],
    defaultTtl: typeof resource.defaultTtl === 'number' ? resource.defaultTtl : null,
    etag: resource._etag,
    definition: withoutSystemProperties(resource),
  };
}

export function inspectContainers(database: Database, ids: readonly string[]): Promise<LiveContainer[]> {
  return Promise.all(ids.map((id) => inspectContainer(database, id)));
}

function withoutSystemProperties(resource: object): ContainerDefinition {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => !key.startsWith('_'))) as ContainerDefinition;
}
