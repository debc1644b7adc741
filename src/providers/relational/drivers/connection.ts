import type { Knex } from 'knex';
import { StoreError } from '../../../errors';
import type { RelationalDialect } from '../families/dialects';
import type { Executor } from './executor';
import { MysqlExecutor } from './mysql-executor';
import { RELATIONAL_STORE } from '../options';
import { PgExecutor } from './pg-executor';
import { knexRunner } from './schema-runner';
import { SqliteExecutor } from './sqlite-executor';

/** knex's client fields that name the driver and dialect. */
interface KnexClientInfo {
  readonly driverName?: string;
  readonly dialect?: string;
}

/** Which dialect the caller's knex speaks, and the executor that runs lifespan's statements on it. */
export async function openExecutor(knex: Knex): Promise<Executor> {
  const client = knex.client as unknown as KnexClientInfo;
  const driver = client.driverName;
  if (driver === 'better-sqlite3') return SqliteExecutor.open(knex);
  if (driver === 'pg' && client.dialect === 'postgresql') return new PgExecutor(knex);
  if (driver === 'mysql2') return new MysqlExecutor(knex, await mysqlFlavor(knex));
  throw new StoreError(
    'RELATIONAL_UNSUPPORTED_DRIVER',
    `knex client '${driver ?? 'unknown'}' (dialect ${client.dialect ?? 'unknown'}) is not supported`,
    {
      store: RELATIONAL_STORE,
      hint: "use knex with client 'better-sqlite3' (SQLite), 'pg' (PostgreSQL) or 'mysql2' (MariaDB / MySQL)",
    },
  );
}

async function mysqlFlavor(knex: Knex): Promise<Extract<RelationalDialect, 'mariadb' | 'mysql'>> {
  const [row] = await knexRunner(knex, 'mysql').rows('SELECT VERSION() AS version');
  return /mariadb/i.test(String(row?.['version'] ?? '')) ? 'mariadb' : 'mysql';
}

/**
 * The dialect the caller's knex speaks, told without a connection (offline explain, snapshot,
 * diff). mysql2 serves MariaDB and MySQL alike: knex's `version` option tells them apart (MySQL
 * 5.x-9.x, MariaDB 10 and later, or a version naming mariadb); without one MariaDB is assumed.
 */
export function offlineDialect(knex: Knex): RelationalDialect | undefined {
  const client = knex.client as unknown as KnexClientInfo & { config?: { version?: unknown } };
  if (client.driverName === 'better-sqlite3') return 'sqlite';
  if (client.driverName === 'pg') return 'postgres';
  if (client.driverName !== 'mysql2') return undefined;
  const version = String(client.config?.version ?? '');
  const major = Number(/^(\d+)/.exec(version)?.[1] ?? Number.NaN);
  return /mysql/i.test(version) || (major >= 5 && major < 10) ? 'mysql' : 'mariadb';
}

/** True when the dialect offlineDialect gives is a guess: mysql2 without knex's `version` (MariaDB assumed). */
export function offlineDialectGuessed(knex: Knex): boolean {
  const client = knex.client as unknown as KnexClientInfo & { config?: { version?: unknown } };
  return client.driverName === 'mysql2' && (client.config?.version ?? '') === '';
}

/** Where the knex instance points, with the password masked. */
export function describeKnex(knex: Knex): string {
  const client = knex.client as unknown as KnexClientInfo & { config?: { connection?: unknown } };
  const connection = client.config?.connection;
  const driver = client.driverName ?? 'knex';
  if (typeof connection === 'string') return `${driver} ${maskUrl(connection)}`;
  if (typeof connection === 'object' && connection !== null) {
    const c = connection as Record<string, unknown>;
    if (typeof c['filename'] === 'string') return `${driver} ${c['filename']}`;
    if (typeof c['connectionString'] === 'string') return `${driver} ${maskUrl(c['connectionString'])}`;
    const user = typeof c['user'] === 'string' ? `${c['user']}@` : '';
    const host = `${String(c['host'] ?? 'localhost')}${c['port'] ? `:${String(c['port'])}` : ''}`;
    return `${driver} ${user}${host}/${String(c['database'] ?? '')}`;
  }
  return driver;
}

function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
