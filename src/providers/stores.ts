import { descriptor as cosmos } from './cosmos/descriptor';
import { descriptor as cassandra } from './cassandra/descriptor';
import { descriptor as mongodb } from './mongodb/descriptor';
import { descriptor as redis } from './redis/descriptor';
import { descriptor as relational } from './relational/descriptor';

/**
 * Every store lifespan compiles to: one import line per folder under src/providers, naming its
 * descriptor.ts, and its name in this list (test/architecture.test.ts checks both match the
 * folders). The list's order is the order `explain()` reports the stores in and the CLI lists
 * them: an array, so no module format or bundler can reorder it.
 */
export const STORES = [cosmos, cassandra, mongodb, redis, relational] as const;
