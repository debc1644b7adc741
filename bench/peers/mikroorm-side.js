'use strict';
/**
 * MikroORM 6 (installed in bench/peers only; 7.x needs Node 22) doing case 6's work the way its
 * users write it: an EntitySchema, a forked EntityManager per unit of work with persist + flush
 * (MikroORM batches the inserts in one transaction), and findOne() by key with expiresAt > now.
 */
const { MikroORM, EntitySchema } = require('@mikro-orm/better-sqlite');

const { driverLabel } = require('../lib/versions');

class MikroSession {}

const schema = new EntitySchema({
  class: MikroSession,
  tableName: 'mikro_sessions',
  properties: {
    id: { type: 'string', primary: true },
    owner: { type: 'string' },
    payload: { type: 'string' },
    hits: { type: 'integer' },
    createdAt: { type: 'Date' },
    expiresAt: { type: 'Date', nullable: true },
  },
});

async function openMikroorm(filename, pragmas) {
  const orm = await MikroORM.init({
    dbName: filename,
    entities: [schema],
    debug: false,
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
  });
  const connection = orm.em.getConnection();
  const db = await connection.getKnex().client.acquireConnection();
  pragmas(db);
  await connection.getKnex().client.releaseConnection(db);
  await orm.schema.createSchema();
  let readEm = null;
  return {
    label: driverLabel('@mikro-orm/better-sqlite', __dirname),
    async clear() {
      await connection.execute('DELETE FROM `mikro_sessions`');
      readEm = orm.em.fork();
    },
    async insertUnit(rows) {
      const em = orm.em.fork();
      const now = Date.now();
      for (const r of rows) {
        const e = new MikroSession();
        e.id = r.id;
        e.owner = r.owner;
        e.payload = r.payload;
        e.hits = r.hits;
        e.createdAt = new Date(now);
        e.expiresAt = new Date(now + r.ttl * 1000);
        em.persist(e);
      }
      await em.flush();
    },
    /** One EntityManager per run of reads (a request scope), as MikroORM asks. */
    get(id) {
      readEm ??= orm.em.fork();
      return readEm.findOne(MikroSession, { id, expiresAt: { $gt: new Date() } });
    },
    startReads() {
      readEm = orm.em.fork();
    },
    close: () => orm.close(true),
  };
}

module.exports = { openMikroorm };
