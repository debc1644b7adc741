/**
 * A relational unit of work whose later write fails after earlier ones were sent: nothing of it
 * stays, and the error the caller sees is the one that stopped it (a refused value, or the caller's
 * own code), not a driver failure pinned on another entity.
 */
import type { StoreContext } from '../../src';
import { describeEngines, prefixFor, useEmulatedStore } from './support/engines';
import { Sample, Session, make, testModel } from './support/models';

describeEngines('relational unit of work with a failing write after good ones', (engine) => {
  const model = testModel(prefixFor('uowfail'));
  let db: StoreContext;

  useEmulatedStore(engine, model, (suite) => ({ db } = suite));

  test('a NaN in a number member of the second insert rejects with VALUE_INVALID and the first is not written', async () => {
    const uow = db
      .unitOfWork()
      .insert(make(Sample, { id: 'good-a', real: 1.5 }))
      .insert(make(Session, { id: 'good-s', payload: 'p' }))
      .insert(make(Sample, { id: 'bad-b', real: Number.NaN }));
    await expect(uow.commit()).rejects.toMatchObject({ code: 'VALUE_INVALID', entity: 'Sample' });
    expect(await db.repository(Sample).exists('good-a')).toBe(false);
    expect(await db.repository(Session).exists('good-s')).toBe(false);
    expect(await db.repository(Sample).exists('bad-b')).toBe(false);
  });

  test("an error the caller's own code throws while a write is encoded reaches the caller unchanged, and nothing is written", async () => {
    const own = new Error('payload getter failed');
    const bad = make(Session, { id: 'getter-b' });
    Object.defineProperty(bad, 'payload', {
      enumerable: true,
      get() {
        throw own;
      },
    });
    const uow = db
      .unitOfWork()
      .insert(make(Sample, { id: 'getter-a' }))
      .insert(bad);
    const error = await uow.commit().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBe(own);
    expect(await db.repository(Sample).exists('getter-a')).toBe(false);
    expect(await db.repository(Session).exists('getter-b')).toBe(false);
  });
});
