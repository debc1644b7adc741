import { defineConfig } from 'lifespan-orm';
import { RelationalStore } from 'lifespan-orm/relational';
import knex from 'knex';
import { model } from './src/models.js';

const file = process.env.FIXTURE_DB ?? ':memory:';

export default defineConfig({
  model,
  stores: {
    main: () => {
      const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
      return { store: new RelationalStore({ knex: db, ttl: 'emulate' }), dispose: () => db.destroy() };
    },
  },
});
