/**
 * Contract: an entity is looked up the same way on every store (issue 14). Only the class the model
 * was built with is found; anything else handed to repository() or a unit of work is refused at the
 * call with UNKNOWN_ENTITY, the same detail and hint on every store, naming what was given.
 */
import { ErrorCodes, LifespanError } from '../../src';
import { contractModel, Sample } from './models';
import { forEachStore } from './stores';

const prefix = `cl${process.pid % 10000}`;

class Stranger {
  id = '';
}
/** Another class with the name of one of the model's classes. */
const Namesake = (() => {
  class Sample {
    id = '';
  }
  return Sample;
})();
const Anonymous = (() => class {})();

const MODEL_CLASSES = "the model's classes are Sample, Order";

/** [label, target, detail, hint]: refused on every store with exactly this detail and hint. */
const REFUSED: ReadonlyArray<readonly [string, unknown, string, string]> = [
  [
    'a class outside the model',
    Stranger,
    'Stranger is not an entity of this model',
    `${MODEL_CLASSES}; add it with new ModelBuilder().entity(...) before build()`,
  ],
  [
    "another class with a model class's name",
    Namesake,
    'Sample is not an entity of this model',
    'it is another class named Sample: pass the class the model was built with',
  ],
  [
    'an anonymous class',
    Anonymous,
    'an anonymous class is not an entity of this model',
    `${MODEL_CLASSES}; add it with new ModelBuilder().entity(...) before build()`,
  ],
  [
    "an entity's name",
    'Sample',
    '"Sample" is not an entity class',
    `pass the class Sample itself, not its name; ${MODEL_CLASSES}`,
  ],
  ['undefined', undefined, 'undefined is not an entity class', `pass an entity class: ${MODEL_CLASSES}`],
  ['null', null, 'null is not an entity class', `pass an entity class: ${MODEL_CLASSES}`],
];

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

forEachStore('entity lookup', contractModel(prefix), prefix, (store, db) => {
  test.each(REFUSED)(
    'repository(%s) is UNKNOWN_ENTITY, worded the same on every store',
    (_label, target, detail, hint) => {
      const error = thrownBy(() => db().repository(target as never));
      expect(error).toBeInstanceOf(LifespanError);
      expect(error).toMatchObject({ code: ErrorCodes.UNKNOWN_ENTITY, store: store.can.storeName, detail, hint });
    },
  );

  test.each(REFUSED)('unitOfWork().delete(%s, key) is refused at the call, not at commit', (_label, target, detail) => {
    const error = thrownBy(() =>
      db()
        .unitOfWork()
        .delete(target as never, 'k'),
    );
    expect(error).toMatchObject({ code: ErrorCodes.UNKNOWN_ENTITY, store: store.can.storeName, detail });
  });

  test.each([
    ['a class outside the model', Stranger, 'Stranger is not an entity of this model'],
    ["another class with a model class's name", Namesake, 'Sample is not an entity of this model'],
  ])('unitOfWork().upsert(instance of %s) is refused at the call', (_label, target, detail) => {
    const error = thrownBy(() =>
      db()
        .unitOfWork()
        .upsert(Object.assign(new target(), { id: 'x' })),
    );
    expect(error).toMatchObject({ code: ErrorCodes.UNKNOWN_ENTITY, store: store.can.storeName, detail });
  });

  test('the model class itself is found', () => {
    expect(() => db().repository(Sample)).not.toThrow();
    expect(() => db().unitOfWork().delete(Sample, 'k')).not.toThrow();
  });
});
