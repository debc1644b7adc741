/**
 * Reading the emulated expiry straight from the table (no lifespan code in between), for tests that
 * assert what is stored rather than what ttl() rounds it to.
 */
import type { Knex } from 'knex';
import type { RelationalEngine } from './engines';

/** The stored expires_at: its exact text as the database holds it, and the instant in epoch ms. */
export interface Stored {
  readonly text: string | null;
  readonly ms: number | null;
}

/** Reads expires_at without any lifespan code in between, at the column's full precision. */
export async function storedExpiry(
  knex: Knex,
  engine: RelationalEngine,
  table: string,
  key: string | Record<string, unknown>,
): Promise<Stored> {
  const where = typeof key === 'string' ? { id: key } : key;
  const select = {
    sqlite: 'expires_at AS text, expires_at AS ms',
    postgres: 'CAST(expires_at AS text) AS text, extract(epoch from expires_at) * 1000 AS ms',
    mariadb: "CAST(expires_at AS CHAR) AS text, TIMESTAMPDIFF(MICROSECOND, '1970-01-01', expires_at) / 1000 AS ms",
  }[engine];
  const row = (await knex(table).select(knex.raw(select)).where(where).first()) as
    { text: unknown; ms: unknown } | undefined;
  if (!row) throw new Error(`no row ${JSON.stringify(where)} in ${table}`);
  return { text: row.text === null ? null : String(row.text), ms: row.ms === null ? null : Number(row.ms) };
}

/** Runs `write` and returns the window of client instants (ms) in which the database stamped it. */
export async function during(write: () => Promise<unknown>): Promise<{ from: number; to: number }> {
  const from = Date.now();
  await write();
  return { from, to: Date.now() };
}

/** Expects `stored` to be now + seconds for a `now` inside `window` (1 s slack for the DB clock). */
export function expectNowPlus(stored: Stored, window: { from: number; to: number }, seconds: number): void {
  expect(stored.ms).not.toBeNull();
  expect(stored.ms).toBeGreaterThanOrEqual(window.from + seconds * 1000 - 1000);
  expect(stored.ms).toBeLessThanOrEqual(window.to + seconds * 1000 + 1000);
}
