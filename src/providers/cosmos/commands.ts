import type { ContainerSpec } from './compile';

/** The container definition created for a spec (defaultTtl left out when TTL is off). */
export interface CreateContainerBody {
  readonly id: string;
  readonly partitionKey: { readonly paths: readonly string[] };
  readonly defaultTtl?: number;
}

export function createBody(spec: ContainerSpec): CreateContainerBody {
  const body = { id: spec.id, partitionKey: { paths: [spec.partitionKeyPath] } };
  return spec.defaultTtl === null ? body : { ...body, defaultTtl: spec.defaultTtl };
}

/** @azure/cosmos call text, as a user would write it. */
export function createCommand(spec: ContainerSpec): string {
  return `database.containers.createIfNotExists(${literal(createBody(spec))})`;
}

export function createDatabaseCommand(id: string): string {
  return `client.databases.createIfNotExists({ id: ${quote(id)} })`;
}

export function replaceCommand(containerId: string, to: number | null): string {
  const change = to === null ? 'defaultTtl removed' : `defaultTtl: ${to}`;
  return (
    `const { resource } = await database.container(${quote(containerId)}).read();\n` +
    `await database.container(${quote(containerId)}).replace({ ...resource, ${change} }) ` +
    `// keeps partitionKey, indexingPolicy and every other property read; If-Match: resource._etag`
  );
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** JS object literal with single-quoted strings, the way the Cosmos docs show calls. */
function literal(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${literal(v)}`);
    return `{ ${entries.join(', ')} }`;
  }
  return String(value);
}
