'use strict';
/**
 * The benchmark's entities, configured fluently (this folder is plain JavaScript, without
 * decorator metadata), and a generator of many entities for the model and plan cases.
 */
const { ModelBuilder } = require('./lifespan');

/** The session of case 1 and 2: a string key, a few members, @CreatedAt, and per-write TTLs. */
class BenchSession {
  constructor() {
    this.id = '';
    this.owner = '';
    this.payload = '';
    this.hits = 0;
    this.createdAt = new Date(0);
  }
}

/** The same members without any TTL: the unfiltered reads of case 2 run against it. */
class PlainSession {
  constructor() {
    this.id = '';
    this.owner = '';
    this.payload = '';
    this.hits = 0;
    this.createdAt = new Date(0);
  }
}

/** The rows of the purge case. */
class BenchPurge {
  constructor() {
    this.id = '';
    this.owner = '';
    this.hits = 0;
  }
}

const COLUMNS = ['id', 'owner', 'payload', 'hits', 'createdAt'];

function session(e, table) {
  return e
    .toCollection(table)
    .key((x) => x.id)
    .field((x) => x.owner)
    .field((x) => x.payload)
    .field((x) => x.hits, { type: 'integer' })
    .createdAt((x) => x.createdAt);
}

/** BenchSession (TTL 1h, per-write TTLs allowed), PlainSession (no TTL) and BenchPurge (TTL 1h). */
function benchModel() {
  return new ModelBuilder()
    .entity(BenchSession, (e) => session(e, 'bench_sessions').timeToLive('1h', { perWrite: true }))
    .entity(PlainSession, (e) => session(e, 'plain_sessions'))
    .entity(BenchPurge, (e) =>
      e
        .toCollection('bench_purge')
        .key((x) => x.id)
        .field((x) => x.owner)
        .field((x) => x.hits, { type: 'integer' })
        .timeToLive('1h'),
    )
    .build();
}

const PAYLOAD = 'p'.repeat(90);

/** Row i of the session tables: deterministic values, 1,000 distinct owners. */
function sessionValues(i) {
  return { id: `s${i}`, owner: `o${i % 1000}`, payload: `${PAYLOAD}${i}`, hits: i };
}

/** A BenchSession's record as lifespan stores it on Redis (its JSON, members in the mapping's order): what a tool sends by hand. */
function storedSessionJson(v) {
  return JSON.stringify({
    createdAt: v.createdAt.toISOString(),
    id: v.id,
    owner: v.owner,
    payload: v.payload,
    hits: v.hits,
  });
}

function newSession(Class, i) {
  const s = new Class();
  const v = sessionValues(i);
  s.id = v.id;
  s.owner = v.owner;
  s.payload = v.payload;
  s.hits = v.hits;
  return s;
}

/** The per-write TTL of row i: an hour and up to ten minutes, so that writes really differ. */
function ttlOf(i) {
  return 3600 + (i % 600);
}

/**
 * `count` entity classes, each with six members and one of four TTL shapes (none; '1h' from
 * @CreatedAt; '7d' per-write from @UpdatedAt; '30m' counting from a date member), registered
 * fluently. Returns the classes and a function that registers them on a ModelBuilder.
 */
function generatedEntities(count, prefix = 'Gen') {
  const classes = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${i}`;
    // A named class per entity, as a user's code has: the model keys entities by class name.
    const Class = {
      [name]: class {
        constructor() {
          this.id = '';
          this.title = '';
          this.count = 0;
          this.flag = false;
          this.createdAt = new Date(0);
          this.updatedAt = new Date(0);
          this.seenAt = new Date(0);
        }
      },
    }[name];
    classes.push(Class);
  }
  const configure = (i) => (e) => {
    e.toCollection(`${prefix.toLowerCase()}_${i}`)
      .key((x) => x.id)
      .field((x) => x.title)
      .field((x) => x.count, { type: 'integer' })
      .field((x) => x.flag)
      .field((x) => x.seenAt)
      .createdAt((x) => x.createdAt)
      .updatedAt((x) => x.updatedAt);
    switch (i % 4) {
      case 1:
        e.timeToLive('1h');
        break;
      case 2:
        e.timeToLive('7d', { perWrite: true });
        break;
      case 3:
        e.timeToLive((x) => x.seenAt, '30m');
        break;
    }
  };
  return {
    classes,
    register(builder) {
      classes.forEach((Class, i) => builder.entity(Class, configure(i)));
      return builder;
    },
  };
}

module.exports = {
  BenchSession,
  PlainSession,
  BenchPurge,
  COLUMNS,
  benchModel,
  sessionValues,
  storedSessionJson,
  newSession,
  ttlOf,
  generatedEntities,
};
