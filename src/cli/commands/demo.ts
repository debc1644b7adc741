import * as fs from 'node:fs';
import * as path from 'node:path';
import { LifespanError } from '../../errors';
import { explain } from '../../explain-model';
import { model } from '../../demo/models';
import { runRelationalDemo } from '../../demo/sqlite-demo';

/** What the SQLite part of the demo loads; both are optional peers a user may not have installed. */
const DEMO_DRIVERS = ['knex', 'better-sqlite3'];

/**
 * The main job on the embedded default, no server needed: explain the example models for every
 * store, then run them on a fresh SQLite file with emulated TTL and show expiry at work. The
 * models ship compiled (src/demo/models.ts), so this works from an installed package too.
 */
export async function demoCommand(file: string, log: (line: string) => void): Promise<void> {
  log('# 1. What each store will natively do with the example models (explain)\n');
  log(explain(model).toText());
  log('# 2. The relational store with ttl: emulate\n');
  log(explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } }).toText());
  log('# 3. Running it on SQLite\n');
  checkDemoDrivers();
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
  await runRelationalDemo(log, file, model);
}

/** Fails before any file is touched when the SQLite part cannot run; `resolve` is for tests. */
export function checkDemoDrivers(resolve: (name: string) => string = require.resolve): void {
  const missing = DEMO_DRIVERS.filter((name) => !resolvable(name, resolve));
  if (missing.length > 0) {
    throw new LifespanError('DEMO_DRIVER_MISSING', `the SQLite part of the demo needs ${missing.join(' and ')}`, {
      store: 'relational',
      hint: `npm install ${DEMO_DRIVERS.join(' ')} (the explain part above needs no driver)`,
    });
  }
}

function resolvable(name: string, resolve: (name: string) => string): boolean {
  try {
    resolve(name);
    return true;
  } catch {
    return false;
  }
}
