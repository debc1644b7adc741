import { sqliteRunner, type SchemaRunner } from '../../drivers/schema-runner';
import type { SqliteExecutor } from '../../drivers/sqlite-executor';

/** SQLite: BEGIN IMMEDIATE on the executor's own connection, with the executor's other work held back. */
export function lockedSchema<T>(executor: SqliteExecutor, fn: (runner: SchemaRunner) => Promise<T>): Promise<T> {
  return executor.exclusive(async () => {
    const db = executor.connection;
    await beginImmediate(db);
    try {
      const result = await fn(sqliteRunner(db));
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  });
}

const SQLITE_LOCK_WAIT_MS = 30_000;
const SQLITE_LOCK_RETRY_MS = 20;

/**
 * BEGIN IMMEDIATE without better-sqlite3's busy wait, which sleeps synchronously: a second
 * connection of the same process waiting that way would stall the event loop and with it the
 * holder of the lock. Retry with the busy timeout off, yielding in between.
 */
async function beginImmediate(db: SqliteExecutor['connection']): Promise<void> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  const previous = Number(db.pragma('busy_timeout', { simple: true }));
  for (;;) {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    } finally {
      db.pragma(`busy_timeout = ${previous}`);
    }
    await new Promise((resolve) => setTimeout(resolve, SQLITE_LOCK_RETRY_MS));
  }
}
