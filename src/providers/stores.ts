/**
 * Every store lifespan compiles to: one line per folder under src/providers, naming its
 * descriptor.ts (test/architecture.test.ts checks the lines match the folders). The order of the
 * lines is the order `explain()` reports the stores in and the CLI lists them: the CommonJS build
 * defines these exports, and so registry.ts reads them, in statement order.
 */
export { descriptor as cosmos } from './cosmos/descriptor';
export { descriptor as cassandra } from './cassandra/descriptor';
export { descriptor as mongodb } from './mongodb/descriptor';
export { descriptor as redis } from './redis/descriptor';
export { descriptor as relational } from './relational/descriptor';
