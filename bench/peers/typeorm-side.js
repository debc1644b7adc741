'use strict';
/**
 * TypeORM (installed in bench/peers only) doing case 6's work the way its users write it: an
 * EntitySchema (this folder has no decorator metadata), one transaction per unit with a multi-row
 * insert, and findOne() by key with the expiry filter (expiresAt > now, from the client clock).
 */
const { DataSource, EntitySchema, MoreThan } = require('typeorm');

const { driverLabel } = require('../lib/versions');

class TypeormSession {}

const schema = new EntitySchema({
  name: 'TypeormSession',
  target: TypeormSession,
  tableName: 'typeorm_sessions',
  columns: {
    id: { type: 'varchar', primary: true },
    owner: { type: 'varchar' },
    payload: { type: 'varchar' },
    hits: { type: 'integer' },
    createdAt: { type: 'datetime' },
    expiresAt: { type: 'datetime', nullable: true },
  },
});

async function openTypeorm(filename, pragmas) {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: filename,
    entities: [schema],
    synchronize: true,
    logging: false,
    prepareDatabase: pragmas,
  });
  await dataSource.initialize();
  const repository = dataSource.getRepository(TypeormSession);
  return {
    label: driverLabel('typeorm', __dirname),
    async clear() {
      await dataSource.query('DELETE FROM "typeorm_sessions"');
    },
    /** rows: [{ id, owner, payload, hits, ttl }] of one unit of work. */
    async insertUnit(rows) {
      const now = Date.now();
      const entities = rows.map((r) => {
        const e = new TypeormSession();
        e.id = r.id;
        e.owner = r.owner;
        e.payload = r.payload;
        e.hits = r.hits;
        e.createdAt = new Date(now);
        e.expiresAt = new Date(now + r.ttl * 1000);
        return e;
      });
      await dataSource.transaction((manager) => manager.insert(TypeormSession, entities));
    },
    get(id) {
      return repository.findOne({ where: { id, expiresAt: MoreThan(new Date()) } });
    },
    close: () => dataSource.destroy(),
  };
}

module.exports = { openTypeorm };
