import { INSTANT_SAY, withMemberExpiry } from './expiry-instant';
import type { ExplainEntry } from '../../explain/entry';
import { mongoConditionalWrites } from './conditional-writes-explain';
import { perWriteRows, type PerWriteHow } from '../../explain/per-write-rows';
import type { CollectionMapping, DateMemberTtl, ExpiryFieldTtl } from './compile';
import { createIndexesCommand, shellCommand } from './commands';
import { SAY, STORE, UNVERIFIED_NOTE } from './semantics';
import { MONGODB_FIELD_UNEXPIRY, MONGODB_UNEXPIRY, MONGODB_TOUCH, MONGODB_MEMBER_TOUCH } from './unexpiry';

export interface ExplainContext {
  /** Whether the store filters expired-but-not-yet-deleted documents out of every read. */
  readonly hideExpired: boolean;
}

/** One entity on MongoDB, in MongoDB's words (facts: semantics.ts). */
export function explainMapping(mapping: CollectionMapping, ctx: ExplainContext): ExplainEntry {
  const { ttl } = mapping;
  if (ttl === null) return noTtl(mapping);
  return ttl.kind === 'date-member' ? dateMember(mapping, ttl, ctx) : expiryField(mapping, ttl, ctx);
}

function visibility(ctx: ExplainContext): string {
  return `${SAY.monitor}, and ${ctx.hideExpired ? SAY.hidden : SAY.stillReturned}`;
}

function common(mapping: CollectionMapping, ctx: ExplainContext) {
  const index = mapping.ttl?.index;
  return {
    entity: mapping.entity.name,
    collection: mapping.collection,
    store: STORE,
    mechanism: 'ttl-index' as const,
    key: keyLayout(mapping),
    materializedBy: {
      text: !index
        ? 'no TTL index'
        : mapping.ttl?.kind === 'expiry-field'
          ? `TTL index ${index.name} on ${index.field} (expireAfterSeconds: 0), created by createIndexes; ` +
            `lifespan's update pipelines set each document's ${index.field}`
          : `TTL index ${index.name} on ${index.field} (expireAfterSeconds: ${index.expireAfterSeconds}), ` +
            'created by createIndexes and changed in place by collMod',
      commands: index ? [shellCommand(createIndexesCommand(mapping.collection, index))] : [],
    },
    expiredVisibleUntilDeleted: !ctx.hideExpired,
    deletion: { by: SAY.deletionBy, lag: SAY.deletionLag },
  };
}

function dateMember(mapping: CollectionMapping, ttl: DateMemberTtl, ctx: ExplainContext): ExplainEntry {
  const { member, field, seconds } = ttl;
  const stamping = {
    createdAt: `lifespan sets ${member} to the server's time when a write creates the document without one.`,
    updatedAt: `lifespan sets ${member} to the server's time on every write, so each write restarts the clock.`,
    explicit: `lifespan does not set ${member}: your writes must put a Date in it.`,
  }[ttl.source];
  const text = [
    `${mapping.collection}: documents expire ${seconds}s after ${member} (per-document TTL index on ${field}, ` +
      `expireAfterSeconds: ${seconds}; ${visibility(ctx)}).`,
    `${stamping} Writes cannot carry their own TTL (perWrite is not declared).`,
    `Changing the TTL is an in-place collMod and is retroactive: shortening it makes documents whose ${member} ` +
      `is older than now − new TTL eligible for deletion at once (${UNVERIFIED_NOTE}).`,
  ].join(' ');
  const why =
    `the TTL counts from ${member} for the whole collection (one TTL index); ` +
    'declare perWrite: true to give each write its own expiry date';
  const unsupported: PerWriteHow = { support: 'unsupported', how: why };
  const perWrite = perWriteRows({
    duration: unsupported,
    default: { support: 'native', how: `no per-write value: the document expires ${seconds}s after ${member}` },
    never: unsupported,
    keep: unsupported,
    extend: unsupported,
    at: unsupported,
  });
  const warnings =
    ttl.source === 'explicit'
      ? [`lifespan does not set ${member}; ${SAY.notADate(member)}, so every write must give it a Date`]
      : [];
  return withMemberExpiry(mapping.entity, ttl, {
    ...common(mapping, ctx),
    seconds,
    countsFrom: `member:${member}`,
    perWrite,
    conditionalWrites: mongoConditionalWrites(mapping),
    unexpiry: { possible: true, text: MONGODB_UNEXPIRY },
    touch: MONGODB_MEMBER_TOUCH,
    changeEffect: { kind: 'retroactive', text: SAY.collModRetroactive(member) },
    limits: limits(field),
    warnings,
    text,
  });
}

function expiryField(mapping: CollectionMapping, ttl: ExpiryFieldTtl, ctx: ExplainContext): ExplainEntry {
  const { field, defaultSeconds, anchor } = ttl;
  const defaultFrom = anchor ? `${anchor.member}` : 'the write';
  const defaultExpr = anchor
    ? `${field} = ${anchor.member} + ${defaultSeconds}s`
    : `${field} = $$NOW + ${defaultSeconds}s (the server's time of the write)`;
  const head =
    defaultSeconds !== null
      ? `${mapping.collection}: documents expire ${defaultSeconds}s after ${defaultFrom} by default, ` +
        `stamped into ${field} at each write`
      : `${mapping.collection}: documents expire only when a write gives them a TTL, at the instant stamped into ${field}`;
  const anchorNote =
    anchor?.source === 'updatedAt'
      ? ` (${anchor.member} is the server's time of the write, so each write restarts the clock)`
      : anchor?.source === 'createdAt'
        ? ` (${anchor.member} is set to the server's time when a write creates the document without one)`
        : '';
  const text = [
    `${head} (per-document TTL index on ${field}, expireAfterSeconds: 0; ${visibility(ctx)}).`,
    defaultSeconds !== null
      ? `A write without a TTL stamps ${defaultExpr}${anchorNote};`
      : `A write without a TTL leaves no ${field}, so the document does not expire;`,
    `a per-write TTL n stamps ${field} = $$NOW + n (server clock), 'never' removes ${field}, 'keep' leaves it, ` +
      `{ extend: n } keeps the later of ${field} and $$NOW + n, and { at: Date } stores that instant.`,
    defaultSeconds !== null
      ? `Changing the default affects new writes only: stored documents keep their ${field} until rewritten.`
      : `There is no default to change: each document's ${field} comes from its own writes.`,
  ].join(' ');
  const defaultHow =
    defaultSeconds !== null
      ? `${defaultExpr}, stamped by the update pipeline`
      : `no ${field}: the document does not expire (an upsert removes a stored ${field})`;
  const perWrite = perWriteRows({
    duration: { support: 'native', how: `$set ${field}: { $add: ["$$NOW", n * 1000] } (update pipeline)` },
    default: { support: 'native', how: defaultHow },
    never: { support: 'native', how: `$unset ${field}: the document does not expire` },
    keep: {
      support: 'native',
      how:
        `${field} is left as stored (a document that does not exist yet gets ` +
        `${defaultSeconds !== null ? 'the default' : `no ${field}`})`,
    },
    extend: {
      support: 'native',
      how:
        `$set ${field}: { $max: ["$${field}", { $add: ["$$NOW", n * 1000] }] }; a new document gets $$NOW + n, ` +
        `a stored document without ${field} keeps never expiring`,
    },
    at: { support: 'native', how: `$set ${field}: <the instant>; ${INSTANT_SAY.atHow}` },
  });
  return {
    ...common(mapping, ctx),
    seconds: defaultSeconds,
    countsFrom: defaultSeconds !== null && anchor ? `member:${anchor.member}` : 'last-write',
    perWrite,
    conditionalWrites: mongoConditionalWrites(mapping),
    unexpiry: MONGODB_FIELD_UNEXPIRY,
    touch: MONGODB_TOUCH,
    changeEffect:
      defaultSeconds !== null
        ? { kind: 'new-writes-only', text: `${SAY.stamped(field)}.` }
        : { kind: 'none', text: `there is no default TTL to change; each document's ${field} comes from its writes.` },
    limits: limits(field),
    warnings: [],
    text,
  };
}

function noTtl(mapping: CollectionMapping): ExplainEntry {
  const why = 'no TTL declared: declare @TimeToLive({ perWrite: true }) to give writes an expiry date';
  return {
    entity: mapping.entity.name,
    collection: mapping.collection,
    store: STORE,
    mechanism: 'none',
    key: keyLayout(mapping),
    seconds: null,
    countsFrom: null,
    materializedBy: { text: 'no TTL index', commands: [] },
    perWrite: [
      { value: 'duration', support: 'unsupported', how: why },
      { value: 'default', support: 'native', how: 'no per-write value: the document does not expire' },
      { value: 'never', support: 'unsupported', how: why },
      { value: 'keep', support: 'unsupported', how: why },
      { value: 'extend', support: 'unsupported', how: why },
      { value: 'at', support: 'unsupported', how: why },
    ],
    conditionalWrites: mongoConditionalWrites(mapping),
    expiredVisibleUntilDeleted: false,
    deletion: { by: 'nothing: no TTL index', lag: 'not applicable' },
    changeEffect: {
      kind: 'none',
      text: 'no TTL declared; adding one later creates a TTL index, which judges every stored document at once',
    },
    limits: [],
    warnings: [],
    text:
      `${mapping.collection}: documents do not expire (no TTL declared, no TTL index). ` +
      `Adding a TTL later creates a TTL index, which judges every stored document at once.`,
  };
}

function limits(field: string): string[] {
  return [SAY.range, SAY.noCompoundNoId, `${SAY.notADate(field)}`, SAY.primaryOnly, SAY.needs42, INSTANT_SAY.readBack];
}

/** The whole key is _id: the value itself for one member, a sub-document of every key member otherwise. */
function keyLayout(mapping: CollectionMapping): string {
  const [only, ...rest] = mapping.key;
  if (only && rest.length === 0) return `_id = ${only.member}`;
  return `_id = { ${mapping.key.map((k) => k.field).join(', ')} } (a sub-document, in this order)`;
}
