/**
 * Issue 25: `{ at: Date }` in the per-write grammar, and expiry from a member (@ExpiresAt /
 * `.expiresAt(x => x.m)`) in the model: what is recorded, and the ModelErrors of a declaration
 * that cannot work (a duration and an expiry member together, a member that is not a Date, two members).
 */
import 'reflect-metadata';
import {
  Entity,
  ExpiresAt,
  Field,
  Key,
  ModelBuilder,
  ModelError,
  TimeToLive,
  TtlError,
  explain,
  type PerWriteTtl,
} from '../../src';
import { resolveWriteTtl, WRITE_TTL_KINDS } from '../../src/model/per-write-ttl';
import { thrown } from './thrown';
import { STORE_NAMES } from '../../src/providers/registry';

describe('{ at: Date } in the per-write grammar', () => {
  test('resolves to the instant, copied', () => {
    const at = new Date('2031-05-06T07:08:09.123Z');
    const resolved = resolveWriteTtl({ at });
    expect(resolved).toEqual({ kind: 'at', at: new Date('2031-05-06T07:08:09.123Z') });
    at.setTime(0);
    expect(resolved).toMatchObject({ at: new Date('2031-05-06T07:08:09.123Z') });
  });

  test("'at' is one of the per-write kinds every explain table lists", () => {
    expect(WRITE_TTL_KINDS).toContain('at');
  });

  test.each([
    ['an invalid Date', { at: new Date('nope') }, /invalid Date/],
    ['a number', { at: 1_900_000_000_000 }, /must be a Date, not 1900000000000/],
    ['a string', { at: '2031-01-01' }, /must be a Date, not "2031-01-01"/],
    ['null', { at: null }, /must be a Date, not null/],
    ['a mixed value', { at: new Date('2031-01-01'), seconds: 5 }, /mixes 'at' with other keys \("seconds"\)/],
  ])('%s is TTL_INVALID_AT naming it', (_label, value, message) => {
    const error = thrown(() => resolveWriteTtl(value as unknown as PerWriteTtl));
    expect(error).toBeInstanceOf(TtlError);
    expect(error).toMatchObject({ code: 'TTL_INVALID_AT' });
    expect((error as Error).message).toMatch(message);
  });
});

@Entity('invitations')
class Invitation {
  @Key() id = '';
  @Field() email = '';
  @ExpiresAt({ nullable: true }) validUntil: Date | null = null;
}

class FluentInvitation {
  id = '';
  validUntil: Date | null = null;
}

describe('@ExpiresAt() and .expiresAt(x => x.m)', () => {
  test('record the member as the expiry instant: no duration, no per-write TTLs', () => {
    const model = new ModelBuilder().entity(Invitation).build();
    expect(model.entities[0]?.ttl).toEqual({
      seconds: null,
      declared: '@ExpiresAt() on validUntil',
      anchor: null,
      perWrite: false,
      expiryField: 'validUntil',
      instantMember: 'validUntil',
    });
    expect(model.entities[0]?.fields.find((f) => f.member === 'validUntil')).toMatchObject({
      type: 'date',
      nullable: true,
    });
  });

  test('the fluent form records the same model', () => {
    const fluent = new ModelBuilder()
      .entity(FluentInvitation, (e) =>
        e
          .key((x) => x.id)
          .field((x) => x.validUntil, { type: 'date', nullable: true })
          .expiresAt((x) => x.validUntil),
      )
      .build();
    expect(fluent.entities[0]?.ttl).toEqual(new ModelBuilder().entity(Invitation).build().entities[0]?.ttl);
  });

  test('a duration and an expiry member together: one ModelError that says to keep one', () => {
    @Entity()
    @TimeToLive('30d')
    class Both {
      @Key() id = '';
      @ExpiresAt() validUntil = new Date(0);
    }
    const error = thrown(() => new ModelBuilder().entity(Both).build());
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).problems).toEqual([
      expect.objectContaining({ code: 'MODEL_TTL_AND_EXPIRES_AT', entity: 'Both', member: 'validUntil' }),
    ]);
    expect((error as Error).message).toMatch(/declares both a duration .* and an expiry member/);
    // The fluent duration on an @ExpiresAt class is the same conflict.
    const fluent = thrown(() => new ModelBuilder().entity(Invitation, (e) => e.timeToLive('1h')).build());
    expect((fluent as ModelError).problems[0]).toMatchObject({ code: 'MODEL_TTL_AND_EXPIRES_AT' });
  });

  test('a member that is not a Date, or two members: MODEL_EXPIRES_AT_MEMBER', () => {
    class NotDate {
      id = '';
      until = 0;
    }
    const error = thrown(() =>
      new ModelBuilder()
        .entity(NotDate, (e) =>
          e
            .key((x) => x.id)
            .expiresAt((x) => x.until as unknown as Date)
            // A later field declaration that retypes the member.
            .field((x) => x.until, { type: 'integer' }),
        )
        .build(),
    );
    expect((error as ModelError).problems.map((p) => p.code)).toContain('MODEL_EXPIRES_AT_MEMBER');

    @Entity()
    class Two {
      @Key() id = '';
      @ExpiresAt() a = new Date(0);
      @ExpiresAt() b = new Date(0);
    }
    const two = thrown(() => new ModelBuilder().entity(Two).build());
    expect((two as ModelError).problems[0]).toMatchObject({ code: 'MODEL_EXPIRES_AT_MEMBER' });
    expect((two as Error).message).toMatch(/@ExpiresAt on 2 members \(a, b\)/);
  });

  test('explain() on every store: countsFrom instant:<member>, and the plain write uses the member', () => {
    const model = new ModelBuilder().entity(Invitation).build();
    const report = explain(model, {
      stores: STORE_NAMES,
      relational: { ttl: 'emulate' },
    });
    for (const entry of report.entries) {
      expect([entry.store, entry.countsFrom]).toEqual([entry.store, 'instant:validUntil']);
      expect(entry.text).toContain('each record expires at the instant in validUntil (@ExpiresAt');
      const plainWrite = entry.perWrite.find((r) => r.value === 'default');
      expect([entry.store, plainWrite?.how]).toEqual([
        entry.store,
        expect.stringContaining('the instant in validUntil'),
      ]);
      for (const row of entry.perWrite.filter((r) => r.value !== 'default')) {
        expect([entry.store, row.value, row.support]).toEqual([entry.store, row.value, 'unsupported']);
      }
    }
    const mongo = report.entries.find((e) => e.store === 'mongodb');
    expect(mongo?.materializedBy.commands.join('\n')).toContain('expireAfterSeconds: 0');
    expect(mongo?.changeEffect.kind).toBe('retroactive');
    expect(report.entries.find((e) => e.store === 'cosmos')?.text).toContain('DefaultTimeToLive -1');
  });
});
