import { planSchema } from '../../src/providers/mongodb/plan';
import { liveWith, mapping, plainIndex, ttlIndex } from './fixtures';

const sessions = mapping('Session');
const carts = mapping('Cart');
const audit = mapping('AuditLog');
const plan = (m = sessions, live = liveWith('sessions', []), allowDestructive = false) =>
  planSchema([m], live, { allowDestructive });

describe('plan: creating what is missing', () => {
  test('a missing collection: create it, then its TTL index (nothing stored, so nothing affected)', () => {
    const steps = plan(sessions, liveWith('sessions', null));
    expect(steps.map((s) => [s.action, s.class])).toEqual([
      ['create-collection', 'additive'],
      ['create-ttl-index', 'additive'],
    ]);
    expect(steps[0]?.payload).toEqual({ op: 'command', command: { create: 'sessions' }, count: null });
    expect(steps[1]?.payload).toEqual({
      op: 'command',
      command: {
        createIndexes: 'sessions',
        indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 3600 }],
      },
      count: null,
    });
    expect(steps[1]?.command).toBe(
      'db.runCommand({ createIndexes: "sessions", indexes: [ { key: { createdAt: 1 }, name: "createdAt_1", expireAfterSeconds: 3600 } ] })',
    );
    expect(steps[1]?.effect).toMatchObject({ kind: 'none' });
  });

  test('an existing collection without the index: creating it is retroactive on stored documents, and countable', () => {
    const [step] = plan();
    expect(step).toMatchObject({ action: 'create-ttl-index', class: 'additive', ttl: { from: null, to: 3600 } });
    expect(step?.effect).toMatchObject({ kind: 'retroactive', verified: false });
    expect(step?.effect?.text).toContain(
      'documents whose createdAt is older than now − 3600s are eligible for deletion',
    );
    expect(step?.payload).toMatchObject({ count: { field: 'createdAt', atOrBefore: 3600, after: null } });
  });

  test('per-write entities get the expiry-field index with expireAfterSeconds 0', () => {
    const [, step] = plan(carts, liveWith('carts', null));
    expect(step?.payload).toMatchObject({
      command: {
        createIndexes: 'carts',
        indexes: [{ key: { expiresAt: 1 }, name: 'expiresAt_1', expireAfterSeconds: 0 }],
      },
    });
  });

  test('in sync: the same TTL on the field (any direction, any name) is nothing to do', () => {
    expect(plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 3600)]))).toEqual([]);
    expect(
      plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 3600, { name: 'mine', key: { createdAt: -1 } })])),
    ).toEqual([]);
    expect(plan(audit, liveWith('audit_log', [plainIndex('createdAt')]))).toEqual([]);
  });

  test('the default name taken by an index on another key: a free name, so createIndexes cannot hit code 86', () => {
    const [step] = plan(sessions, liveWith('sessions', [plainIndex('other', { name: 'createdAt_1' })]));
    expect(step?.payload).toMatchObject({ command: { indexes: [{ name: 'createdAt_1_ttl' }] } });
  });
});

describe('plan: changing a TTL is one in-place collMod, never drop and recreate', () => {
  test('shortening: collMod with the existing key pattern; retroactive; counts the newly eligible window', () => {
    const [step, ...rest] = plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 7200)]));
    expect(rest).toEqual([]);
    expect(step).toMatchObject({
      action: 'set-expire-after-seconds',
      class: 'in-place',
      ttl: { from: 7200, to: 3600 },
    });
    expect(step?.payload).toEqual({
      op: 'command',
      command: { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
      count: { field: 'createdAt', atOrBefore: 3600, after: 7200 },
    });
    expect(step?.command).toBe(
      'db.runCommand({ collMod: "sessions", index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } })',
    );
    expect(step?.effect?.kind).toBe('retroactive');
    expect(step?.effect?.text).toContain('older than now − new TTL eligible for deletion at once');
  });

  test('lengthening: collMod; retroactive but makes nothing eligible (no count query needed)', () => {
    const [step] = plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 60, { key: { createdAt: -1 } })]));
    expect(step?.payload).toMatchObject({
      command: { collMod: 'sessions', index: { keyPattern: { createdAt: -1 }, expireAfterSeconds: 3600 } },
      count: null,
    });
    expect(step?.effect?.text).toContain('no document becomes eligible because of this step');
  });

  test('a corrupt stored value (NaN, string) is repaired in place and says why it matters', () => {
    for (const bad of [Number.NaN, '3600', -5, 1.5]) {
      const [step] = plan(sessions, liveWith('sessions', [ttlIndex('createdAt', bad)]));
      expect(step).toMatchObject({
        action: 'repair-expire-after-seconds',
        class: 'in-place',
        ttl: { from: null, to: 3600 },
      });
      expect(step?.summary).toContain('treat NaN as 0');
      expect(step?.payload).toMatchObject({ command: { collMod: 'sessions' }, count: { after: null } });
    }
  });
});

describe('plan: a non-TTL index on the field', () => {
  test('MongoDB 5.1+: converted in place with collMod', () => {
    const [step] = plan(sessions, liveWith('sessions', [plainIndex('createdAt')], '5.1.0'));
    expect(step).toMatchObject({ action: 'convert-to-ttl-index', class: 'in-place', ttl: { from: null, to: 3600 } });
    expect(step?.payload).toMatchObject({
      command: { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: 3600 } },
    });
  });

  test.each([['5.0.14'], ['4.4.29'], [null]])('MongoDB %s: a conflict, nothing dropped', (version) => {
    const steps = plan(sessions, liveWith('sessions', [plainIndex('createdAt')], version));
    expect(steps.map((s) => s.class)).toEqual(['conflict']);
    expect(steps[0]?.summary).toContain('cannot convert it in place (collMod does so from 5.1)');
    expect(steps[0]?.payload).toMatchObject({ op: 'conflict' });
  });

  test('old server with allowDestructive: drop (destructive) then create', () => {
    const steps = plan(sessions, liveWith('sessions', [plainIndex('createdAt')], '4.4.0'), true);
    expect(steps.map((s) => [s.action, s.class])).toEqual([
      ['drop-index', 'destructive'],
      ['create-ttl-index', 'additive'],
    ]);
    expect(steps[0]?.payload).toMatchObject({ command: { dropIndexes: 'sessions', index: 'createdAt_1' } });
  });
});

describe('plan: TTL indexes lifespan does not want', () => {
  test('a TTL index on a different member is a conflict', () => {
    const steps = plan(sessions, liveWith('sessions', [ttlIndex('lastLogin', 600)]));
    expect(steps.map((s) => [s.action, s.class])).toEqual([
      ['create-ttl-index', 'additive'],
      ['conflict', 'conflict'],
    ]);
    expect(steps[1]?.summary).toContain('TTL index lastLogin_1 on sessions.lastLogin also deletes documents');
  });

  test('with allowDestructive it is dropped (destructive), and the drop deletes nothing itself', () => {
    const steps = plan(sessions, liveWith('sessions', [ttlIndex('lastLogin', 600)]), true);
    expect(steps[1]).toMatchObject({ action: 'drop-index', class: 'destructive', ttl: { from: 600, to: null } });
    expect(steps[1]?.effect?.text).toContain('no document is deleted by the drop itself');
  });

  test('switching a collection to per-write expiry: the old date-member TTL index is a conflict', () => {
    const steps = plan(carts, liveWith('carts', [ttlIndex('updatedAt', 604800)]));
    expect(steps.map((s) => s.action)).toEqual(['create-ttl-index', 'conflict']);
  });

  test('an entity without TTL and a TTL index on its collection: conflict', () => {
    const steps = plan(audit, liveWith('audit_log', [ttlIndex('createdAt', 60)]));
    expect(steps.map((s) => s.class)).toEqual(['conflict']);
    expect(steps[0]?.summary).toContain('AuditLog declares no TTL');
  });

  test('a partial TTL index on the same field is not ours: create ours, report the partial one', () => {
    const steps = plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 3600, { name: 'p', partial: true })]));
    expect(steps.map((s) => s.action)).toEqual(['create-ttl-index', 'conflict']);
    expect(steps[1]?.summary).toContain('(partial)');
  });

  test('compound indexes are never treated as TTL indexes', () => {
    const compound = { ...ttlIndex('createdAt', 5), key: { createdAt: 1, payload: 1 }, name: 'c' };
    expect(plan(sessions, liveWith('sessions', [ttlIndex('createdAt', 3600), compound]))).toEqual([]);
  });
});
