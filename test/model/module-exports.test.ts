/**
 * The modules the write path reads on every write keep plain data exports. tsc compiles
 * `export { x } from './y'` to an accessor defined over the data property it declared first, and
 * that redefinition turns the module's exports object into a dictionary: every read of any of its
 * exports (`duration_1.parseDuration`, `duration_1.MAX_TTL_SECONDS`) is then a generic property
 * load instead of an inlined one (src/model/duration.ts; measured with callgrind,
 * bench/tools/sqlite-insert-harness.js).
 */
const HOT_MODULES = ['../../src/model/duration'];

describe('hot modules export data properties only', () => {
  test.each(HOT_MODULES)('%s', (path) => {
    const exported: object = jest.requireActual(path);
    const accessors = Object.keys(exported).filter(
      (name) => typeof Object.getOwnPropertyDescriptor(exported, name)?.get === 'function',
    );
    expect(accessors).toEqual([]);
  });
});
