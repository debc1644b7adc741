'use strict';
/**
 * Case 10 (issue 26): update() with a @Version against the raw conditional write. N rows stored at
 * version 1 (untimed, before every run); lifespan updates each one through repository.update(entity)
 * (UPDATE … WHERE key AND version = ? AND live, version + 1 set on the entity); the reference sends
 * the same statement, prepared, with the raw driver and checks one row changed. Target ≤ 1.2×.
 */
const lifespan = require('../lib/lifespan');
const conn = require('../lib/connections');
const { timing, interleave, compareRow, atMost } = require('../lib/measure');
const { driverLabel } = require('../lib/versions');

const TARGET = 1.2;
const TABLE = 'bench_accounts';

class BenchAccount {
  constructor() {
    this.id = '';
    this.owner = '';
    this.version = 0;
  }
}

function accountModel() {
  return new lifespan.ModelBuilder()
    .entity(BenchAccount, (e) =>
      e
        .toCollection(TABLE)
        .key((x) => x.id, { type: 'string' })
        .field((x) => x.owner, { type: 'string' })
        .version((x) => x.version)
        .timeToLive(3600),
    )
    .build();
}

const idOf = (i) => `a${String(i).padStart(8, '0')}`;

/** The reference's statement: what a careful developer writes for a versioned update under emulated TTL. */
const UPDATE = {
  sqlite: (now) =>
    `UPDATE "${TABLE}" SET "owner" = ?, "version" = ?, "expires_at" = ${now} + ? * 1000 ` +
    `WHERE "id" = ? AND "version" = ? AND ("expires_at" IS NULL OR "expires_at" > ${now})`,
  postgres:
    `UPDATE "${TABLE}" SET "owner" = $1, "version" = $2, "expires_at" = now() + $3 * interval '1 second' ` +
    `WHERE "id" = $4 AND "version" = $5 AND ("expires_at" IS NULL OR "expires_at" > now())`,
};
const SQLITE_NOW = "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)";

async function open(knex, rows) {
  await knex.schema.dropTableIfExists(TABLE);
  const { RelationalStore } = lifespan.relational();
  const db = await lifespan.connect(accountModel(), new RelationalStore({ knex, ttl: 'emulate' }));
  await db.ensureCollections();
  const repo = db.repository(BenchAccount);
  const uow = db.unitOfWork();
  for (let i = 0; i < rows; i++) uow.insert(Object.assign(new BenchAccount(), { id: idOf(i), owner: 'o' }));
  await uow.commit();
  return { db, repo };
}

/** Both sides start each run with every row at version 1 and entities that say so. */
function fresh(rows) {
  return Array.from({ length: rows }, (_, i) =>
    Object.assign(new BenchAccount(), { id: idOf(i), owner: 'o', version: 1 }),
  );
}

function row(store, measured, options, referenceLabel) {
  return compareRow(measured, 'lifespan', 'raw', {
    case: 10,
    store,
    measure: `update() with a version, ${options.versionUpdates} rows`,
    params: { rows: options.versionUpdates, runs: options.runs, warmup: options.warmup },
    referenceLabel,
    target: atMost(TARGET),
  });
}

async function sqlite(ctx) {
  const { options, info } = ctx;
  const rows = options.versionUpdates;
  const knex = conn.sqliteKnex(info, 'versions');
  const { db, repo } = await open(knex, rows);
  const handle = await conn.sqliteHandle(knex);
  const update = handle.prepare(UPDATE.sqlite(SQLITE_NOW));
  let entities = fresh(rows);
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: async () => {
      handle.exec(`UPDATE "${TABLE}" SET "version" = 1`);
      entities = fresh(rows);
    },
    sides: {
      lifespan: async () => {
        for (const e of entities) {
          e.owner = 'p';
          await repo.update(e);
        }
      },
      raw: async () => {
        for (const e of entities) {
          const { changes } = update.run('p', e.version + 1, 3600, e.id, e.version);
          if (changes !== 1) throw new Error(`version conflict on ${e.id}`);
          e.version += 1;
        }
      },
    },
  });
  await db.close();
  await knex.destroy();
  return [row('sqlite', measured, options, driverLabel('better-sqlite3'))];
}

async function postgres(ctx) {
  const { options, info } = ctx;
  const rows = options.versionUpdates;
  const knex = conn.pgKnex(info);
  const { db, repo } = await open(knex, rows);
  const client = await conn.rawPg(info);
  let entities = fresh(rows);
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: async () => {
      await client.query(`UPDATE "${TABLE}" SET "version" = 1`);
      entities = fresh(rows);
    },
    sides: {
      lifespan: async () => {
        for (const e of entities) {
          e.owner = 'p';
          await repo.update(e);
        }
      },
      raw: async () => {
        for (const e of entities) {
          const result = await client.query({
            name: 'bench_versioned_update',
            text: UPDATE.postgres,
            values: ['p', e.version + 1, 3600, e.id, e.version],
          });
          if (result.rowCount !== 1) throw new Error(`version conflict on ${e.id}`);
          e.version += 1;
        }
      },
    },
  });
  await db.close();
  await client.end();
  await knex.schema.dropTableIfExists(TABLE);
  await knex.destroy();
  return [row('postgres', measured, options, driverLabel('pg'))];
}

module.exports = { run: { sqlite, postgres } };
