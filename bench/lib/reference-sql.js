'use strict';
/**
 * The references' statements, written by hand: the SQL a careful developer would write for the
 * same semantics as lifespan's emulated TTL (docs/stores and DESIGN.md), on the database clock:
 *
 * - insert with a per-write TTL: expires_at = now + n; a live row with the key is a duplicate,
 *   an expired one is replaced (SQLite/PostgreSQL: one INSERT … ON CONFLICT … WHERE expired;
 *   MariaDB: DELETE the expired row, then INSERT).
 * - reads: WHERE … AND (expires_at IS NULL OR expires_at > now); the unfiltered reads read a table
 *   without expires_at.
 * - purge: one DELETE … WHERE expires_at <= now.
 */

const SQLITE_NOW = "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)";

const sqlite = {
  now: SQLITE_NOW,
  insert:
    'INSERT INTO "bench_sessions" ("id", "owner", "payload", "hits", "createdAt", "expires_at") ' +
    `VALUES (?, ?, ?, ?, ?, ${SQLITE_NOW} + ? * 1000) ` +
    'ON CONFLICT ("id") DO UPDATE SET "owner" = excluded."owner", "payload" = excluded."payload", ' +
    '"hits" = excluded."hits", "createdAt" = excluded."createdAt", "expires_at" = excluded."expires_at" ' +
    `WHERE "bench_sessions"."expires_at" <= ${SQLITE_NOW}`,
  get:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "bench_sessions" ' +
    `WHERE "id" = ? AND ("expires_at" IS NULL OR "expires_at" > ${SQLITE_NOW})`,
  getPlain: 'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "plain_sessions" WHERE "id" = ?',
  find:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "bench_sessions" ' +
    `WHERE "owner" = ? AND ("expires_at" IS NULL OR "expires_at" > ${SQLITE_NOW}) ORDER BY "id"`,
  findPlain:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "plain_sessions" WHERE "owner" = ? ORDER BY "id"',
  purge: `DELETE FROM "bench_purge" WHERE "expires_at" <= ${SQLITE_NOW}`,
};

const postgres = {
  now: 'now()',
  insert:
    'INSERT INTO "bench_sessions" ("id", "owner", "payload", "hits", "createdAt", "expires_at") ' +
    "VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 second') " +
    'ON CONFLICT ("id") DO UPDATE SET "owner" = excluded."owner", "payload" = excluded."payload", ' +
    '"hits" = excluded."hits", "createdAt" = excluded."createdAt", "expires_at" = excluded."expires_at" ' +
    'WHERE "bench_sessions"."expires_at" <= now()',
  get:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "bench_sessions" ' +
    'WHERE "id" = $1 AND ("expires_at" IS NULL OR "expires_at" > now())',
  getPlain: 'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "plain_sessions" WHERE "id" = $1',
  find:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "bench_sessions" ' +
    'WHERE "owner" = $1 AND ("expires_at" IS NULL OR "expires_at" > now()) ORDER BY "id"',
  findPlain:
    'SELECT "id", "owner", "payload", "hits", "createdAt" FROM "plain_sessions" WHERE "owner" = $1 ORDER BY "id"',
  purge: 'DELETE FROM "bench_purge" WHERE "expires_at" <= now()',
};

const mariadb = {
  now: 'UTC_TIMESTAMP(3)',
  deleteExpired: 'DELETE FROM `bench_sessions` WHERE `id` = ? AND `expires_at` <= UTC_TIMESTAMP(3)',
  insert:
    'INSERT INTO `bench_sessions` (`id`, `owner`, `payload`, `hits`, `createdAt`, `expires_at`) ' +
    'VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(3) + INTERVAL ? SECOND)',
  get:
    'SELECT `id`, `owner`, `payload`, `hits`, `createdAt` FROM `bench_sessions` ' +
    'WHERE `id` = ? AND (`expires_at` IS NULL OR `expires_at` > UTC_TIMESTAMP(3))',
  getPlain: 'SELECT `id`, `owner`, `payload`, `hits`, `createdAt` FROM `plain_sessions` WHERE `id` = ?',
  find:
    'SELECT `id`, `owner`, `payload`, `hits`, `createdAt` FROM `bench_sessions` ' +
    'WHERE `owner` = ? AND (`expires_at` IS NULL OR `expires_at` > UTC_TIMESTAMP(3)) ORDER BY `id`',
  findPlain:
    'SELECT `id`, `owner`, `payload`, `hits`, `createdAt` FROM `plain_sessions` WHERE `owner` = ? ORDER BY `id`',
  purge: 'DELETE FROM `bench_purge` WHERE `expires_at` <= UTC_TIMESTAMP(3)',
};

function cassandra(keyspace) {
  const table = `"${keyspace}"."bench_sessions"`;
  return {
    exists: `SELECT "id" FROM ${table} WHERE "id" = ? LIMIT 1`,
    insert: `INSERT INTO ${table} ("id", "owner", "payload", "hits", "createdAt") VALUES (?, ?, ?, ?, ?) USING TTL ?`,
    get: `SELECT "id", "owner", "payload", "hits", "createdAt" FROM ${table} WHERE "id" = ?`,
  };
}

module.exports = { sqlite, postgres, mariadb, cassandra };
