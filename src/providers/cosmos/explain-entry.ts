import { INSTANT_SAY, withMemberExpiry } from './expiry-instant';
import type { ExplainEntry, PerWriteRow } from '../../explain/entry';
import { cosmosConditionalWrites } from './conditional-writes-explain';
import { perWriteRows, type PerWriteHow } from '../../explain/per-write-rows';
import type { EntityModel } from '../../model/types';
import { describeDefaultTtl, type ContainerSpec, type EntityLayout } from './compile';
import { createCommand } from './commands';
import {
  partitionKeyFixed,
  PHRASES,
  RETROACTIVE_QUALIFIER,
  retroactiveChangeText,
  SERVICE_QUALIFIER,
  STORE,
  TTL_ON_NO_DEFAULT,
} from './semantics';
import { COSMOS_UNEXPIRY, COSMOS_TOUCH } from './unexpiry';

export interface ExplainContext {
  /** The store was opened with hideExpired: reads filter items past _ts + ttl themselves. */
  readonly hideExpired: boolean;
}

/** One entity on Cosmos DB: what it does with the entity's TTL, in its own terms. */
export function explainEntity(
  entity: EntityModel,
  layout: EntityLayout,
  container: ContainerSpec,
  ctx: ExplainContext,
): ExplainEntry {
  const on = container.defaultTtl !== null;
  const limits = [
    PHRASES.valueRange,
    PHRASES.granularity,
    PHRASES.everyWriteRestarts,
    PHRASES.itemTtlNeedsContainer,
    partitionKeyFixed(layout.partitionKeyPath),
    INSTANT_SAY.readBack,
  ];
  if (layout.shared) {
    limits.push(
      `container '${container.id}' is shared by ${container.entities.join(', ')}: items carry $type, and ids must be unique across them within a partition`,
    );
  }
  if (ctx.hideExpired) {
    limits.push(
      'hideExpired: lifespan also hides items past _ts + ttl on every read, judged by the server clock (point reads: the Date header of the response; queries: estimated from a recent Date header, within about a second)',
    );
  }
  return withMemberExpiry(entity, {
    entity: entity.name,
    collection: entity.collection,
    store: STORE,
    mechanism: on ? 'container-ttl' : 'none',
    key: keyLayout(layout),
    seconds: entity.ttl?.seconds ?? null,
    countsFrom: on ? 'last-write' : null,
    materializedBy: {
      text:
        `container '${container.id}' (partition key ${layout.partitionKeyPath}) with DefaultTimeToLive ` +
        `${describeDefaultTtl(container.defaultTtl)}: created by ensureCollections(), changed in place by a container replace`,
      commands: [createCommand(container)],
    },
    perWrite: perWriteRowsOf(entity, container.defaultTtl),
    conditionalWrites: cosmosConditionalWrites(entity),
    expiredVisibleUntilDeleted: false,
    deletion: on ? { by: PHRASES.deletionBy, lag: PHRASES.deletionLag } : { by: 'nothing (TTL off)', lag: 'never' },
    unexpiry: { possible: true, text: COSMOS_UNEXPIRY },
    touch: COSMOS_TOUCH,
    changeEffect: {
      kind: 'retroactive',
      text: on
        ? retroactiveChangeText()
        : `turning TTL on later (a container replace) judges every stored item against its _ts at once (retroactive; ${RETROACTIVE_QUALIFIER})`,
    },
    limits,
    warnings: warningsOf(entity),
    text: paragraph(entity, container),
  });
}

function paragraph(entity: EntityModel, container: ContainerSpec): string {
  const head = `${entity.collection}: `;
  const retro = `Changing DefaultTimeToLive re-judges stored items without their own ttl (retroactive; ${RETROACTIVE_QUALIFIER}).`;
  if (container.defaultTtl === null) {
    return (
      head +
      `no DefaultTimeToLive on the container (TTL off): ${PHRASES.itemTtlIgnored}. ` +
      `Turning TTL on later (a container replace) judges every stored item against its _ts at once (${RETROACTIVE_QUALIFIER}).`
    );
  }
  if (container.defaultTtl === TTL_ON_NO_DEFAULT) {
    return (
      head +
      'container-level DefaultTimeToLive -1 (TTL on, no default): items never expire unless a write gives them ' +
      `their own ttl (n s), which ${PHRASES.countsFrom.replace('each', 'the')}; ${PHRASES.visibility} and ${PHRASES.deletion}. ` +
      retro
    );
  }
  const perWrite = entity.ttl?.perWrite
    ? "A write may set the item's own ttl (n s, or -1 = never), which overrides the default and also counts from _ts."
    : 'No per-write ttl declared.';
  return (
    head +
    `container-level DefaultTimeToLive ${container.defaultTtl}, ${PHRASES.countsFrom}; ` +
    `${PHRASES.visibility} and ${PHRASES.deletion}. ${perWrite} ${retro}`
  );
}

function perWriteRowsOf(entity: EntityModel, defaultTtl: number | null): PerWriteRow[] {
  const defaultHow: PerWriteHow = {
    support: 'native',
    how:
      defaultTtl === null
        ? 'no ttl property: the container has no DefaultTimeToLive, the item never expires'
        : defaultTtl === TTL_ON_NO_DEFAULT
          ? 'no ttl property: DefaultTimeToLive is -1, the item never expires'
          : `no ttl property: the container DefaultTimeToLive (${defaultTtl}) applies`,
  };
  if (!entity.ttl?.perWrite) {
    const unsupported: PerWriteHow = {
      support: 'unsupported',
      how:
        defaultTtl === null
          ? `the container has TTL off, so an item ttl would be ignored (${SERVICE_QUALIFIER}); declare @TimeToLive({ perWrite: true }) on ${entity.name} (DefaultTimeToLive -1)`
          : `per-write TTL is not declared on ${entity.name}; declare @TimeToLive({ ttl: ..., perWrite: true })`,
    };
    return perWriteRows({
      duration: unsupported,
      default: defaultHow,
      never: unsupported,
      keep: unsupported,
      extend: unsupported,
      at: unsupported,
    });
  }
  return perWriteRows({
    duration: {
      support: 'native',
      how: "item ttl: n (overrides DefaultTimeToLive; counts from the item's _ts)",
    },
    default: defaultHow,
    never: { support: 'native', how: 'item ttl: -1' },
    keep: {
      support: 'emulated',
      how:
        'read the item and the server time, then replace it on its _etag (If-Match) with ttl = its remaining seconds, ' +
        'so the expiry instant stays (to the second: whole seconds passing between the read and the write move it later); ' +
        `an item on the container default then carries its own ttl (a later DefaultTimeToLive change no longer re-judges it; ${RETROACTIVE_QUALIFIER}); ` +
        'an item that never expires keeps its ttl property; a new or already expired item gets no ttl',
    },
    extend: {
      support: 'emulated',
      how:
        'read the item and the server time, then replace it on its _etag (If-Match) with ttl = max(remaining, n): ' +
        'never shortens; may add the seconds between the read and the write; an item that never expires stays so',
    },
    at: { support: 'emulated', how: INSTANT_SAY.atHow },
  });
}

function warningsOf(entity: EntityModel): string[] {
  const anchor = entity.ttl?.anchor;
  if (!anchor || anchor.source !== 'explicit') return [];
  return [
    `the TTL is anchored on ${anchor.member}, but Cosmos DB ${PHRASES.countsFrom}, not from ${anchor.member}: ` +
      `an item expires ${entity.ttl?.seconds ?? 'its ttl'}s after it was last written, whatever ${anchor.member} holds`,
  ];
}

/** Cosmos identifies an item by (partition key value, id). */
export function keyLayout(layout: EntityLayout): string {
  const id =
    layout.idMembers.length > 1
      ? `${layout.idMembers.join(' + ')} (URI-encoded, joined with '|')`
      : (layout.idMembers[0] ?? '(none)');
  const partition = layout.partitionMember
    ? `${layout.partitionKeyPath} (the value of ${layout.partitionMember})`
    : `${layout.partitionKeyPath} (the item id)`;
  return `item id = ${id}; partition key ${partition}`;
}
