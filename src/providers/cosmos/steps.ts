import type { Database } from '@azure/cosmos';
import { refuse, type StepRules } from '../../core/plan-gate';
import { createContainer, createDatabase, replaceDefaultTtl } from './apply';
import { createCommand, createDatabaseCommand, replaceCommand } from './commands';
import { canExpireSooner } from './item-expiry';
import type { CosmosStepPayload } from './step-payload';
import { STORE } from './semantics';
import { canExpireLater } from './unexpiry';

type PayloadOf<K extends CosmosStepPayload['op']> = Extract<CosmosStepPayload, { readonly op: K }>;

function isTtl(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Cosmos plans hold no destructive operation: a payload of any other kind or shape (a drop, a
 * recreate, a step edited by hand) is refused before any step runs. Scope: the database id.
 */
export const COSMOS_STEPS: StepRules<CosmosStepPayload, 'op', Database, string> = {
  store: STORE,
  discriminant: 'op',
  legacyDiscriminant: 'kind',
  expiresSooner: canExpireSooner,
  conflictHint:
    'a partition key change needs a new container and a copy of the items; lifespan never drops a container, allowDestructive or not',
  table: {
    'create-database': {
      parse: (p, databaseId) =>
        p['id'] === databaseId
          ? (p as unknown as PayloadOf<'create-database'>)
          : refuse(`creates database ${String(p['id'])}, not '${databaseId}'`),
      blocks: () => false,
      destroys: () => false,
      expiresStored: () => false,
      unexpiresStored: () => false,
      apply: (_payload, _step, database) => createDatabase(database),
      render: (payload) => createDatabaseCommand(payload.id),
      explain: 'creates the database',
    },
    'create-container': {
      parse(p) {
        const spec = p['spec'] as Record<string, unknown> | null | undefined;
        const ok =
          typeof spec === 'object' &&
          spec !== null &&
          typeof spec['id'] === 'string' &&
          typeof spec['partitionKeyPath'] === 'string' &&
          isTtl(spec['defaultTtl']);
        return ok ? (p as unknown as PayloadOf<'create-container'>) : refuse('has a malformed container spec');
      },
      blocks: () => false,
      destroys: () => false,
      expiresStored: () => false,
      unexpiresStored: () => false,
      apply: (payload, _step, database) => createContainer(database, payload.spec),
      render: (payload) => createCommand(payload.spec),
      explain: 'creates a container with its partition key and DefaultTimeToLive',
    },
    'set-default-ttl': {
      parse: (p) =>
        typeof p['container'] === 'string' && isTtl(p['from']) && isTtl(p['to'])
          ? (p as unknown as PayloadOf<'set-default-ttl'>)
          : refuse('has a malformed DefaultTimeToLive change'),
      blocks: () => false,
      destroys: () => false,
      // apply() replaces the setting only while it is still `from`, so from → to is what happens.
      expiresStored: (payload) => canExpireSooner(payload.from, payload.to),
      unexpiresStored: (payload) => canExpireLater(payload.from, payload.to),
      apply: (payload, _step, database) => replaceDefaultTtl(database, payload.container, payload.from, payload.to),
      render: (payload) => replaceCommand(payload.container, payload.to),
      explain: 'replaces the container definition in place with a new DefaultTimeToLive',
    },
    conflict: {
      parse: (p) =>
        typeof p['container'] === 'string'
          ? (p as unknown as PayloadOf<'conflict'>)
          : refuse('has a conflict that names no container'),
      blocks: () => true,
      destroys: () => false,
      expiresStored: () => false,
      unexpiresStored: () => false,
      // Never reached: the gate refuses a plan with a conflict before any step runs.
      apply: async () => false,
      render: (payload) =>
        `// not run: create a new container with partitionKey { paths: ['${payload.partitionKeyPath}'] }, ` +
        `copy the items of '${payload.container}' into it, then map the entities to it`,
      explain: 'a change Cosmos DB cannot make in place, such as a partition key (never run)',
    },
  },
};
