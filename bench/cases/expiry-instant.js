'use strict';
/**
 * Case 10: repository.expiresAt(key) ×K against the same native read written by hand: SQLite and
 * PostgreSQL SELECT expires_at of the live row (raw driver, prepared), Cassandra SELECT
 * currentTimestamp() + TTL() (prepared), Redis PEXPIRETIME (node-redis). Every row is live with an
 * expiry an hour ahead; both sides must find a Date for every key.
 */
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, sessionValues } = require('../lib/entities');
const conn = require('../lib/connections');
const { openBenchStore } = require('../lib/bench-store');
const { openCassandraSessions } = require('../lib/cassandra-sessions');
const { redisClient, scanKeys, deleteKeys } = require('../lib/redis-client');
const SQL = require('../lib/reference-sql');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

const TARGET = 1.2;

function keysOf(n) {
  return Array.from({ length: n }, (_, i) => sessionValues(i).id);
}

function must(found, what) {
  if (!found) throw new Error(`${what}: no expiry instant`);
}

/** Times both sides and returns the one comparison row of a store. */
async function compare(ctx, store, keys, repo, raw, referenceLabel) {
  const measured = await interleave({
    ...timing(ctx.options),
    log: ctx.log,
    sides: {
      lifespan: async () => {
        for (const k of keys) must(await repo.expiresAt(k), k);
      },
      raw: async () => {
        for (const k of keys) must(await raw(k), k);
      },
    },
  });
  return compareRow(measured, 'lifespan', 'raw', {
    case: 10,
    store,
    measure: `expiresAt() by key ×${keys.length}`,
    referenceLabel,
    params: { keys: keys.length, runs: ctx.options.runs, warmup: ctx.options.warmup },
    target: atMost(TARGET),
  });
}

async function sqlite(ctx) {
  const { options, info } = ctx;
  const knex = conn.sqliteKnex(info, 'expiry-instant');
  const db = await openBenchStore(knex, { fresh: false });
  const handle = await conn.sqliteHandle(knex);
  const now = Date.now();
  const insert = handle.prepare(
    'INSERT INTO "bench_sessions" ("id", "owner", "payload", "hits", "createdAt", "expires_at") VALUES (?, ?, ?, ?, ?, ?)',
  );
  handle.transaction(() => {
    for (let i = 0; i < options.readKeys; i++) {
      const v = sessionValues(i);
      insert.run(v.id, v.owner, v.payload, v.hits, now, now + 3_600_000);
    }
  })();
  const read = handle.prepare(
    `SELECT "expires_at" FROM "bench_sessions" WHERE "id" = ? AND ("expires_at" IS NULL OR "expires_at" > ${SQL.sqlite.now})`,
  );
  const row = await compare(
    ctx,
    'sqlite',
    keysOf(options.readKeys),
    db.repository(BenchSession),
    async (k) => {
      const found = read.get(k);
      return found && new Date(Number(found.expires_at));
    },
    `${driverLabel('better-sqlite3')}, prepared`,
  );
  await db.close();
  await knex.destroy();
  return [row];
}

async function postgres(ctx) {
  const { options, info } = ctx;
  const knex = conn.pgKnex(info);
  const db = await openBenchStore(knex);
  const client = await conn.rawPg(info);
  await client.query(
    `INSERT INTO "bench_sessions" SELECT 's' || i, 'o' || (i % 1000), repeat('p', 90) || i, i, now(), now() + interval '1 hour' FROM generate_series(0, $1 - 1) AS i`,
    [options.readKeys],
  );
  await client.query('VACUUM ANALYZE "bench_sessions"');
  const text =
    'SELECT "expires_at" FROM "bench_sessions" WHERE "id" = $1 AND ("expires_at" IS NULL OR "expires_at" > now())';
  const row = await compare(
    ctx,
    'postgres',
    keysOf(options.readKeys),
    db.repository(BenchSession),
    async (k) => (await client.query({ name: 'bench_expires_at', text, values: [k] })).rows[0]?.expires_at,
    `${driverLabel('pg')}, prepared`,
  );
  await client.end();
  await db.close();
  await knex.destroy();
  return [row];
}

async function cassandra(ctx) {
  const { options, info } = ctx;
  const { client, db } = await openCassandraSessions(info, options.readKeys);
  const table = `"${info.keyspace}"."bench_sessions"`;
  // The same read by hand: the coordinator's clock and the TTL of every non-key cell.
  const query =
    `SELECT currentTimestamp() AS "now", "owner", TTL("owner") AS "t0", "payload", TTL("payload") AS "t1", ` +
    `"hits", TTL("hits") AS "t2", "createdAt", TTL("createdAt") AS "t3" FROM ${table} WHERE "id" = ?`;
  const row = await compare(
    ctx,
    'cassandra',
    keysOf(options.readKeys),
    db.repository(BenchSession),
    async (k) => {
      const found = (await client.execute(query, [k], { prepare: true })).first();
      if (!found) return undefined;
      const ttl = Math.max(found.t0 ?? 0, found.t1 ?? 0, found.t2 ?? 0, found.t3 ?? 0);
      return new Date((Math.floor(found.now.getTime() / 1000) + ttl) * 1000);
    },
    `${driverLabel('cassandra-driver')}, prepared`,
  );
  await db.close();
  await client.shutdown();
  return [row];
}

/** Redis 7 on REDIS_URL: PEXPIRETIME by hand, keys under this run's own prefix (deleted afterwards). */
async function none(ctx) {
  const { options } = ctx;
  const client = await redisClient();
  const prefix = `lifespan_bench_at_${process.pid}:`;
  try {
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
    await db.ensureCollections();
    const repo = db.repository(BenchSession);
    const keys = keysOf(options.redisOps);
    const at = new Date(Date.now() + 3_600_000);
    for (const k of keys) {
      await repo.upsert(
        Object.assign(new BenchSession(), sessionValues(Number(k.slice(1))), { createdAt: new Date() }),
        {
          ttl: { at },
        },
      );
    }
    // The key each record was written under, found once (untimed) so the hand side sends one PEXPIRETIME.
    const names = new Map();
    await scanKeys(client, prefix, (found) => {
      for (const name of found) names.set(/(s\d+)\W*$/.exec(name)?.[1], name);
    });
    const row = await compare(
      ctx,
      'redis',
      keys,
      repo,
      async (k) => {
        const ms = Number(await client.sendCommand(['PEXPIRETIME', names.get(k)]));
        return ms > 0 ? new Date(ms) : undefined;
      },
      `${driverLabel('redis')} by hand (PEXPIRETIME)`,
    );
    await db.close();
    return [row];
  } finally {
    await deleteKeys(client, prefix);
    client.destroy();
  }
}

module.exports = {
  title: 'expiresAt() against the same native read by hand',
  run: { sqlite, postgres, cassandra, none },
};
