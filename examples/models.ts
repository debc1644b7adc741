/**
 * The example models, for the tests and for reading: the classes live in src/demo/models.ts so
 * that `lifespan demo` ships them compiled and runs them from an installed package.
 */
export * from '../src/demo/models';
export { default } from '../src/demo/models';
