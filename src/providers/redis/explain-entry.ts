import type { ExplainEntry, PerWriteRow } from '../../explain/entry';
import { redisConditionalWrites } from './conditional-writes-explain';
import { perWriteRows } from '../../explain/per-write-rows';
import { perWriteDeclarationHint } from '../../runtime/write-ttl';
import type { KeyspaceMapping } from './compile';
import { keyLayout } from './keys';
import { READ_BACK_SAY, withMemberExpiry } from './expiry-instant';
import { createdAtPattern } from './writes';
import { SAY, STORE } from './semantics';
import { REDIS_UNEXPIRY, REDIS_TOUCH } from './unexpiry';

/** One entity on Redis, in Redis's words (facts: semantics.ts). */
export function explainMapping(mapping: KeyspaceMapping, prefix: string): ExplainEntry {
  const seconds = mapping.defaultSeconds;
  const perWrite = mapping.entity.ttl?.perWrite ?? false;
  const layout = keyLayout(prefix, mapping);
  const defaultSet = seconds === null ? 'SET key value' : `SET key value EX ${seconds}`;
  const head =
    seconds === null
      ? `${mapping.collection}: keys ${layout} do not expire unless a write gives them a TTL`
      : `${mapping.collection}: each key ${layout} expires ${seconds}s after the write that set it (${defaultSet})`;
  const text = [
    `${head}; ${SAY.passive}, and ${SAY.active}.`,
    perWrite
      ? "A write may give its own TTL: n (SET … EX n), 'never' (SET without EX), 'keep' (SET … KEEPTTL) or " +
        '{ extend: n } (EXPIRE … GT n in the same script).'
      : 'Writes cannot carry their own TTL (perWrite is not declared).',
    seconds === null ? 'There is no default to change.' : `${SAY.newWritesOnly}.`,
    'Under maxmemory, volatile-ttl / volatile-lru eviction can remove keys before their TTL.',
  ].join(' ');
  return withMemberExpiry(mapping.entity, {
    entity: mapping.entity.name,
    collection: mapping.collection,
    store: STORE,
    mechanism: seconds === null && !perWrite ? 'none' : 'key-expiry',
    key: layout,
    seconds,
    countsFrom: seconds === null && !perWrite ? null : 'last-write',
    materializedBy: {
      text:
        seconds === null
          ? 'nothing to create: each write sets its own expiry, if any (Redis has no default TTL)'
          : `nothing to create: Redis has no default TTL, so every write sends EX ${seconds} (${SAY.perKey})`,
      commands: writeCommands(mapping, seconds),
    },
    perWrite: perWrite ? nativeRows(seconds) : undeclaredRows(mapping, seconds),
    conditionalWrites: redisConditionalWrites(mapping),
    expiredVisibleUntilDeleted: false,
    deletion: { by: SAY.deletionBy, lag: SAY.deletionLag },
    unexpiry: REDIS_UNEXPIRY,
    touch: REDIS_TOUCH,
    changeEffect:
      seconds === null
        ? { kind: 'none', text: 'no default TTL declared; adding one affects keys written afterwards only' }
        : { kind: 'new-writes-only', text: `${SAY.newWritesOnly}.` },
    limits: [SAY.precision, SAY.valueLimit, SAY.scan, SAY.cluster, SAY.version, READ_BACK_SAY],
    warnings: [SAY.eviction, SAY.replicas, SAY.persistence],
    text,
  });
}

/** What `{ at: Date }` does on Redis: the instant itself, natively. */
const REDIS_AT_HOW =
  'SET key value PXAT <ms> (insert: SET … NX PXAT; setTtl: PEXPIREAT): Redis keeps the instant as absolute ' +
  "Unix milliseconds, exact to the millisecond; an instant not after this process's clock is refused before " +
  'anything is sent (a skew between this clock and the server only moves that check, never the instant)';

function nativeRows(seconds: number | null): PerWriteRow[] {
  const onNew = seconds === null ? 'no expiry' : `EX ${seconds}`;
  return perWriteRows({
    duration: { support: 'native', how: 'SET key value EX n (insert: SET … NX EX n)' },
    default: {
      support: 'native',
      how: seconds === null ? 'SET key value: no expiry (no default declared)' : `SET key value EX ${seconds}`,
    },
    never: { support: 'native', how: 'SET key value without EX: clears the expiry (setTtl: PERSIST)' },
    keep: { support: 'native', how: `SET key value KEEPTTL on a stored key; a new key gets ${onNew}` },
    extend: {
      support: 'native',
      how: 'SET … KEEPTTL, then EXPIRE key n GT, in one script (a key without expiry stays without); a new key gets EX n',
    },
    at: { support: 'native', how: REDIS_AT_HOW },
  });
}

function undeclaredRows(mapping: KeyspaceMapping, seconds: number | null): PerWriteRow[] {
  const why = {
    support: 'unsupported',
    how: `per-write TTL not declared: ${perWriteDeclarationHint(mapping.entity)}`,
  } as const;
  return perWriteRows({
    duration: why,
    default: { support: 'native', how: seconds === null ? 'SET key value: no expiry' : `SET key value EX ${seconds}` },
    never: why,
    keep: why,
    extend: why,
    at: why,
  });
}

/** The commands a write with the entity default sends: one SET, or the write script when an upsert keeps @CreatedAt. */
function writeCommands(mapping: KeyspaceMapping, seconds: number | null): string[] {
  const ex = seconds === null ? '' : ` EX ${seconds}`;
  if (createdAtPattern(mapping) === '') return [`SET <key> <json>${ex}`];
  return [
    `insert: SET <key> <json> NX${ex}`,
    `upsert: EVALSHA <lifespan write script> 1 <key> upsert ${seconds === null ? 'persist 0' : `ex ${seconds}`} <json> … (one script: keeps the stored ${mapping.entity.createdAt ?? 'createdAt'})`,
  ];
}
