import { MongoClient, type Db } from 'mongodb';
import { MongoStore, type MongoDbLike } from '../../src/providers/mongodb';

test('a real driver Db is a MongoDbLike (checked by the compiler) and MongoStore takes it', async () => {
  const client = new MongoClient('mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=10');
  const db: Db = client.db('lifespan_fit');
  const like: MongoDbLike = db;
  const store = new MongoStore({ db });
  expect(like.databaseName).toBe('lifespan_fit');
  expect(store.describe()).toBe("mongodb database 'lifespan_fit' on 127.0.0.1:1");
  await client.close();
});

test('the driver is loaded only where a connection is made (never by explain, compile or plan)', () => {
  const fs = require('node:fs') as typeof import('node:fs');
  const path = require('node:path') as typeof import('node:path');
  const dir = path.resolve(__dirname, '../../src/providers/mongodb');
  const loaders = fs
    .readdirSync(dir)
    .filter((f) => /(from\s+|require\(|import\()\s*['"]mongodb['"]/.test(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((f) => !/import type .* from 'mongodb'/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
  expect(loaders).toEqual(['from-url.ts']);
});
