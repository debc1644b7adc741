/** The embedded default: expiry kept in a SQLite file survives closing and reopening it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { describeStore } from '../harness/stores';
import { knexConfig } from '../harness/relational';
import { connectRelational, TestClock } from './support/engines';
import { Session, Token, make, testModel } from './support/models';

describeStore('sqlite', 'relational SQLite file', () => {
  const model = testModel('file');
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-file-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = () => knex({ ...knexConfig('sqlite'), connection: { filename: path.join(dir, 'app.db') } });

  test('expiry survives a close and reopen; expired rows stay hidden and are purged after it', async () => {
    const clock = new TestClock();
    const first = open();
    const db1 = await connectRelational(model, first, { ttl: 'emulate', clock: clock.read });
    await db1.ensureCollections();
    await db1.repository(Token).insert(make(Token, { id: 'soon', owner: 'o' }), { ttl: 30 });
    await db1.repository(Session).insert(make(Session, { id: 'later', payload: 'p' }));
    await db1.repository(Session).insert(make(Session, { id: 'forever', payload: 'p' }), { ttl: 'never' });
    await db1.close();
    await first.destroy();

    clock.advance(20);
    const second = open();
    const db2 = await connectRelational(model, second, { ttl: 'emulate', clock: clock.read });
    expect((await db2.ensureCollections()).applied).toEqual([]);
    expect(await db2.repository(Token).ttl('soon')).toBe(10);
    expect(await db2.repository(Session).ttl('later')).toBe(3580);
    expect(await db2.repository(Session).ttl('forever')).toBeNull();
    clock.advance(10);
    expect(await db2.repository(Token).exists('soon')).toBe(false);
    expect((await db2.purgeExpired()).deleted).toBe(1);
    await db2.close();
    await second.destroy();

    // a fresh connection without the injected clock: far-future instants are still far ahead
    const third = open();
    const db3 = await connectRelational(model, third, { ttl: 'emulate' });
    expect(await db3.repository(Session).exists('later')).toBe(true);
    await db3.close();
    await third.destroy();
  });
});
