import 'reflect-metadata';
import model from '../../examples/models';
import { Entity, explain, Field, Key, ModelBuilder, ModelError, TimeToLive, UpdatedAt } from '../../src';
import { mongodbExplainer } from '../../src/providers/mongodb/explainer';
import { Cache } from './ttl-without-date';

const SEED =
  'sessions: documents expire 3600s after createdAt (per-document TTL index on createdAt, expireAfterSeconds: 3600; ' +
  'the TTL monitor deletes them about every 60s, and until then they are still returned by queries)';

const entry = (name: string, options: { hideExpired?: boolean } = {}) => {
  const found = mongodbExplainer.explain(model, options).find((e) => e.entity === name);
  if (!found) throw new Error(`no entry for ${name}`);
  return found;
};

describe('mongodb explain of examples/models.ts', () => {
  test('the seed example explains in MongoDB terms, word for word', () => {
    expect(entry('Session').text.startsWith(`${SEED}.`)).toBe(true);
    expect(explain(model, { stores: ['mongodb'] }).toText()).toContain(SEED);
  });

  test('golden text (review changes like code)', () => {
    expect(explain(model, { stores: ['mongodb'] }).toText()).toMatchSnapshot();
    expect(explain(model, { stores: ['mongodb'], mongodb: { hideExpired: true } }).toText()).toMatchSnapshot();
  });

  test('golden JSON (review changes like code)', () => {
    expect(explain(model, { stores: ['mongodb'] }).toJSON()).toMatchSnapshot();
  });

  test('a date-member TTL: TTL index on the member, retroactive collMod, no per-write values', () => {
    const e = entry('Session');
    expect(e).toMatchObject({
      collection: 'sessions',
      store: 'mongodb',
      mechanism: 'ttl-index',
      seconds: 3600,
      countsFrom: 'member:createdAt',
      expiredVisibleUntilDeleted: true,
      changeEffect: { kind: 'retroactive' },
    });
    expect(e.materializedBy.commands).toEqual([
      'db.runCommand({ createIndexes: "sessions", indexes: [ { key: { createdAt: 1 }, name: "createdAt_1", expireAfterSeconds: 3600 } ] })',
    ]);
    expect(e.perWrite.map((r) => [r.value, r.support])).toEqual([
      ['duration', 'unsupported'],
      ['default', 'native'],
      ['never', 'unsupported'],
      ['keep', 'unsupported'],
      ['extend', 'unsupported'],
      ['at', 'unsupported'],
    ]);
    expect(e.changeEffect.text).toContain('(per the MongoDB manual)');
  });

  test('an explicit member (fluent) counts from it and warns that lifespan does not set it', () => {
    const e = entry('Visit');
    expect(e.countsFrom).toBe('member:lastSeenAt');
    expect(e.text).toMatch(/^visits: documents expire 3600s after lastSeenAt \(per-document TTL index on lastSeenAt/);
    expect(e.warnings.join(' ')).toContain('lifespan does not set lastSeenAt');
  });

  test('default + perWrite (Cart): one expiresAt index with eAS 0, the default stamped from updatedAt, new writes only', () => {
    const e = entry('Cart');
    expect(e).toMatchObject({
      mechanism: 'ttl-index',
      seconds: 604800,
      countsFrom: 'member:updatedAt',
      changeEffect: { kind: 'new-writes-only' },
    });
    expect(e.materializedBy.commands).toEqual([
      'db.runCommand({ createIndexes: "carts", indexes: [ { key: { expiresAt: 1 }, name: "expiresAt_1", expireAfterSeconds: 0 } ] })',
    ]);
    expect(e.text).toContain(
      'documents expire 604800s after updatedAt by default, stamped into expiresAt at each write',
    );
    expect(e.text).toContain('Changing the default affects new writes only');
    expect(e.perWrite.every((r) => r.support === 'native')).toBe(true);
  });

  test('perWrite without a default (CacheEntry): expiry-field index with eAS 0, nothing expires by default', () => {
    const e = entry('CacheEntry');
    expect(e).toMatchObject({ seconds: null, countsFrom: 'last-write', changeEffect: { kind: 'none' } });
    expect(e.materializedBy.text).toBe(
      "TTL index expiresAt_1 on expiresAt (expireAfterSeconds: 0), created by createIndexes; lifespan's update pipelines set each document's expiresAt",
    );
    expect(e.perWrite.find((r) => r.value === 'default')?.how).toContain('the document does not expire');
  });

  test('no TTL (AuditLog): no index, nothing expires', () => {
    expect(entry('AuditLog')).toMatchObject({ mechanism: 'none', countsFrom: null, materializedBy: { commands: [] } });
  });

  test('explain states whether the read filter is on', () => {
    const on = entry('Session', { hideExpired: true });
    expect(on.expiredVisibleUntilDeleted).toBe(false);
    expect(on.text).toContain("until then lifespan's read filter (hideExpired) hides them from every read");
    expect(entry('Session').text).toContain('until then they are still returned by queries');
  });
});

describe('mongodb explain refuses what MongoDB cannot do', () => {
  test('a TTL with no date member is a ModelError naming @CreatedAt() and .timeToLive(x => x.member, ...)', () => {
    const m = new ModelBuilder().entity(Cache).build();
    const attempt = () => explain(m, { stores: ['mongodb'] });
    expect(attempt).toThrow(ModelError);
    try {
      attempt();
    } catch (error) {
      const problem = (error as ModelError).problems[0];
      expect(problem).toMatchObject({ code: 'MONGO_TTL_NO_DATE_MEMBER', entity: 'Cache', store: 'mongodb' });
      expect(problem?.hint).toContain('@CreatedAt()');
      expect(problem?.hint).toContain('.timeToLive(x => x.member, ...)');
    }
  });

  test('a TTL counting from a key member (stored in _id) is refused', () => {
    class Event {
      day = new Date(0);
      note = '';
    }
    const m = new ModelBuilder()
      .entity(Event, (e) =>
        e
          .toCollection('events')
          .key((x) => x.day)
          .field((x) => x.note)
          .timeToLive((x) => x.day, '1d'),
      )
      .build();
    expect(() => mongodbExplainer.explain(m)).toThrow(/MONGO_TTL_ON_KEY/);
  });

  test('a member stored as _id that is not the key is refused', () => {
    @Entity('things')
    class Thing {
      @Key() id = '';
      @Field({ name: '_id' }) other = '';
    }
    const m = new ModelBuilder().entity(Thing).build();
    expect(() => mongodbExplainer.explain(m)).toThrow(/MONGO_RESERVED_FIELD/);
  });

  test('perWrite with a default and no date member counts from each write ($$NOW)', () => {
    @Entity('tokens')
    @TimeToLive({ ttl: '15m', perWrite: true })
    class Token {
      @Key() id = '';
    }
    const [e] = mongodbExplainer.explain(new ModelBuilder().entity(Token).build());
    expect(e).toMatchObject({ seconds: 900, countsFrom: 'last-write', changeEffect: { kind: 'new-writes-only' } });
    expect(e?.text).toContain("expiresAt = $$NOW + 900s (the server's time of the write)");
  });

  test('an @UpdatedAt-anchored TTL without perWrite slides: the index is on updatedAt, stamped at every write', () => {
    @Entity('drafts')
    @TimeToLive('2h')
    class Draft {
      @Key() id = '';
      @UpdatedAt() updatedAt = new Date(0);
    }
    const [e] = mongodbExplainer.explain(new ModelBuilder().entity(Draft).build());
    expect(e?.countsFrom).toBe('member:updatedAt');
    expect(e?.materializedBy.text).toContain('TTL index updatedAt_1 on updatedAt (expireAfterSeconds: 7200)');
    expect(e?.text).toContain(
      "lifespan sets updatedAt to the server's time on every write, so each write restarts the clock",
    );
  });
});
