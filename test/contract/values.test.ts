/**
 * Contract: what a value of each field type may be is the same on every store (issue 14). A value
 * outside it is a VALUE_INVALID naming the entity, the member and the store, and nothing is written.
 */
import { ErrorCodes } from '../../src';
import { contractModel, sample, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cv${process.pid % 10000}`;
const LONE = 'a\uD800b';

/** [label, member, value]: refused on every store. */
const REFUSED: ReadonlyArray<readonly [string, keyof Sample, unknown]> = [
  ['an unsafe integer', 'count', 2 ** 53],
  ['a fractional integer', 'count', 1.5],
  ['a bigint past int64', 'big', 2n ** 63n],
  ['a bigint below int64', 'big', -(2n ** 63n) - 1n],
  ['a malformed uuid', 'ref', 'not-a-uuid'],
  ['a function as json', 'data', () => 1],
  ['a bigint inside json', 'data', { n: 1n }],
  ['NaN inside json', 'data', [Number.NaN]],
  ['a cyclic json value', 'data', cyclic()],
  ['a lone surrogate in a string', 'text', LONE],
  ['a lone surrogate inside json', 'data', { note: LONE }],
  ['undefined for a required member', 'text', undefined],
  ['null for a required member', 'flag', null],
  ['a string for a number', 'ratio', '1'],
  ['an Invalid Date', 'at', new Date(Number.NaN)],
  ['NaN for a number', 'ratio', Number.NaN],
  ['Infinity for a number', 'ratio', Number.POSITIVE_INFINITY],
  ['a number for a string', 'text', 5],
  ['a string for a boolean', 'flag', 'true'],
  ['a string for a date', 'at', '2026-01-01'],
];

function cyclic(): unknown {
  const value: Record<string, unknown> = {};
  value['self'] = value;
  return value;
}

forEachStore('field values', contractModel(prefix), prefix, (store, db) => {
  test.each(REFUSED.map(([label, member, value], i) => [label, member, value, i] as const))(
    '%s (%s) is VALUE_INVALID naming the place, and nothing is written',
    async (_label, member, value, i) => {
      const id = `bad${i}`;
      const repo = db().repository(Sample);
      const expected = { code: ErrorCodes.VALUE_INVALID, entity: 'Sample', member, store: store.can.storeName };
      await expect(repo.insert(sample(id, { [member]: value }))).rejects.toMatchObject(expected);
      await expect(repo.upsert(sample(id, { [member]: value }))).rejects.toMatchObject(expected);
      await expect(
        db()
          .unitOfWork()
          .upsert(sample(id, { [member]: value }))
          .commit(),
      ).rejects.toMatchObject(expected);
      expect(await repo.get(id)).toBeUndefined();
    },
  );

  test('the VALUE_INVALID message names the value and the expected type in one wording', async () => {
    const error = await db()
      .repository(Sample)
      .insert(sample('wording', { count: 1.5 }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCodes.VALUE_INVALID });
    expect((error as Error).message).toMatch(
      /^Sample\.count \[\w+\]: value 1\.5 is not a safe integer — give count a safe integer$/,
    );
  });

  test('a nullable member left undefined is stored as null', async () => {
    const repo = db().repository(Sample);
    await repo.upsert(sample('unset', { ref: undefined, data: undefined, bytes: undefined }));
    expect(await repo.get('unset')).toMatchObject({ ref: null, data: null, bytes: null });
  });

  test('every type round-trips a valid value, well-formed text and a valid uuid included', async () => {
    const values = {
      text: 'emoji \uD83D\uDE00 ok',
      count: -42,
      ratio: 2.25,
      big: 2n ** 62n,
      ref: '0f8fad5b-d9cb-469f-a165-70867728950e',
      flag: false,
      at: new Date('2030-05-06T07:08:09.123Z'),
      data: { a: [1, 'two', null, true], b: { c: 'd' } },
      bytes: Buffer.from([0, 1, 254, 255]),
    };
    await db().repository(Sample).upsert(sample('good', values));
    const back = await db().repository(Sample).get('good');
    expect(back).toMatchObject({ ...values, bytes: expect.anything() });
    expect(Buffer.from(back?.bytes as Uint8Array)).toEqual(values.bytes);
  });
});
