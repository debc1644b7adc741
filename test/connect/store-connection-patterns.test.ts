/**
 * connect() reads a store's connection failures by that store's own patterns (and the network
 * codes every driver shares), never by another store's: a Redis failure is not read as MongoDB's
 * refused login or SQLite's missing folder. A store written outside lifespan supplies its patterns
 * on the Store itself; one that supplies none still fails with a typed StoreError.
 */
import { connect, ModelBuilder, StoreError, type Store, type StoreSession } from '../../src';
import type { ConnectionErrorPatterns } from '../../src/providers/connection-patterns';
import { connectionErrorsFor, DESCRIPTORS } from '../../src/providers/registry';

class Lease {
  id = '';
}
const model = new ModelBuilder().entity(Lease, (e) => e.toCollection('leases').key((l) => l.id)).build();

function failure(fields: Record<string, unknown>, message = 'failed'): Error {
  return Object.assign(new Error(message), fields);
}

/** A store named `name` whose open() throws `thrown`. */
function failingStore(name: string, thrown: unknown, connectionErrors?: ConnectionErrorPatterns): Store {
  return {
    name,
    describe: () => `${name}://host/db`,
    open: () => Promise.reject(thrown),
    ...(connectionErrors ? { connectionErrors } : {}),
  };
}

async function connectFailure(store: Store): Promise<unknown> {
  return connect(model, store).then(
    () => 'connected',
    (error: unknown) => error,
  );
}

const boxPatterns: ConnectionErrorPatterns = {
  authFailed: { codes: ['BOX_BAD_TOKEN'] },
  databaseMissing: { names: ['BoxNoSuchShelf'], hint: 'create the shelf first' },
};

describe("a store's failures are read by its own patterns only", () => {
  test("a Redis store's 'Authentication failed.' is not MongoDB's refused login", async () => {
    const error = await connectFailure(failingStore('redis', failure({}, 'Authentication failed.')));
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'STORE_CONNECT_FAILED', store: 'redis' });
    // The same message from MongoDB's driver is its own refused login.
    expect(await connectFailure(failingStore('mongodb', failure({}, 'Authentication failed.')))).toMatchObject({
      code: 'STORE_AUTH_FAILED',
      store: 'mongodb',
    });
  });

  test("a Redis store's 'directory does not exist' is not SQLite's missing folder", async () => {
    const error = await connectFailure(failingStore('redis', failure({}, 'directory does not exist')));
    expect(error).toMatchObject({ code: 'STORE_CONNECT_FAILED', store: 'redis' });
  });

  test('the network codes every driver shares are read on every store', async () => {
    const refused = failure({ code: 'ECONNREFUSED' }, 'connect ECONNREFUSED 127.0.0.1:1');
    expect(await connectFailure(failingStore('redis', refused))).toMatchObject({ code: 'STORE_UNREACHABLE' });
    expect(await connectFailure(failingStore('lease-box', refused))).toMatchObject({ code: 'STORE_UNREACHABLE' });
  });

  test("connectionErrorsFor(): the named store's descriptor patterns, none for a store lifespan does not list", () => {
    for (const d of DESCRIPTORS) expect(connectionErrorsFor(d.name)).toEqual([d.connectionErrors]);
    expect(connectionErrorsFor('lease-box')).toEqual([]);
  });
});

describe('a store written outside lifespan', () => {
  test('supplies its patterns on the Store: its refused token is STORE_AUTH_FAILED', async () => {
    const store = failingStore('lease-box', failure({ code: 'BOX_BAD_TOKEN' }), boxPatterns);
    expect(await connectFailure(store)).toMatchObject({ code: 'STORE_AUTH_FAILED', store: 'lease-box' });
    const missing = failingStore('lease-box', failure({ name: 'BoxNoSuchShelf' }), boxPatterns);
    expect(await connectFailure(missing)).toMatchObject({
      code: 'STORE_DATABASE_MISSING',
      hint: 'create the shelf first',
    });
  });

  test('its patterns also read a failure of a call that talks to the store after connect()', async () => {
    const session = {
      store: 'lease-box',
      plan: () => Promise.reject(failure({ code: 'BOX_BAD_TOKEN' })),
      close: async () => undefined,
    };
    const store: Store = {
      name: 'lease-box',
      describe: () => 'lease-box://host/db',
      open: async () => session as unknown as StoreSession,
      connectionErrors: boxPatterns,
    };
    const db = await connect(model, store);
    await expect(db.plan()).rejects.toMatchObject({ code: 'STORE_AUTH_FAILED', store: 'lease-box' });
  });

  test('that supplies none: a failure to open is a StoreError STORE_CONNECT_FAILED, the driver error its cause', async () => {
    const thrown = failure({ code: 'BOX_BAD_TOKEN' }, 'token refused');
    const error = await connectFailure(failingStore('lease-box', thrown));
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({
      code: 'STORE_CONNECT_FAILED',
      store: 'lease-box',
      message: expect.stringContaining('token refused'),
      cause: thrown,
    });
  });
});
