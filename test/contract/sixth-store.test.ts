/**
 * A sixth store needs its folder and one line in the descriptor list, nothing else: a made-up
 * store (test/fixtures/sixth-store: descriptor, explainer, connection-error patterns, a minimal
 * session) listed after the real ones the way src/providers/stores.ts lists them, and the registry
 * functions built over that list. Its explain output, its URL, the reading of its driver's
 * connection failures and the contract suite's capability lookup all come from its folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { connect, ModelBuilder } from '../../src';
import { connectionError } from '../../src/providers/connection-errors';
import {
  CONNECTION_ERRORS,
  connectionErrorsOf,
  DESCRIPTORS,
  explainersOf,
  storeNamesOf,
} from '../../src/providers/registry';
import type { StoreDescriptor } from '../../src/providers/store-descriptor';
import { openerFor, urlTableOf } from '../../src/providers/url-openers';
import { descriptor as sixth } from '../fixtures/sixth-store/descriptor';
import { SixthStore } from '../fixtures/sixth-store/store';
import { capabilitiesOf } from './capabilities';

/** The list line: what src/providers/stores.ts would read with the sixth store's import added. */
const LISTED = [...DESCRIPTORS, sixth] as const;

class Visit {
  id = '';
}
const model = new ModelBuilder()
  .entity(Visit, (e) =>
    e
      .toCollection('visits')
      .key((v) => v.id)
      .timeToLive('1h'),
  )
  .build();

function failure(fields: Record<string, unknown>, message = 'failed'): Error {
  return Object.assign(new Error(message), fields);
}

describe('a sixth store listed with the others', () => {
  test('is a store name, and explains without a connection through its own explainer', () => {
    expect(storeNamesOf(LISTED)).toEqual([...storeNamesOf(DESCRIPTORS), 'sixth']);
    const entries = explainersOf(LISTED).sixth.explain(model);
    expect(entries).toMatchObject([{ entity: 'Visit', store: 'sixth', mechanism: 'key-expiry', seconds: 3600 }]);
    expect(sixth.mechanisms).toContain(entries[0]?.mechanism);
  });

  test('explains through its session, rendered like any store', async () => {
    const db = await connect(model, new SixthStore());
    try {
      expect(db.explain().toText()).toContain('== sixth ==');
      expect(db.explain().entries.map((e) => e.store)).toEqual(['sixth']);
    } finally {
      await db.close();
    }
  });

  test('opens its URLs', async () => {
    const opened = await openerFor('sixth://host/shelf', urlTableOf(LISTED))('sixth://host/shelf');
    expect(opened.store).toBeInstanceOf(SixthStore);
  });

  test("its driver's connection failures are read by the patterns in its folder", () => {
    const patterns = connectionErrorsOf(LISTED);
    const read = (error: unknown) => connectionError(error, 'sixth', 'sixth://host/shelf', patterns);
    expect(read(failure({ code: 'SIXTH_BAD_TOKEN' }))).toMatchObject({ code: 'STORE_AUTH_FAILED', store: 'sixth' });
    expect(read(failure({ name: 'SixthNoSuchShelf' }))).toMatchObject({
      code: 'STORE_DATABASE_MISSING',
      hint: 'create the shelf first: sixth-driver never creates one',
    });
    expect(read(failure({ code: 'SIXTH_READ_ONLY' }, 'node 2 is a replica'))).toMatchObject({
      code: 'STORE_CONNECT_FAILED',
      message: expect.stringContaining('sixth://host/shelf is read-only: node 2 is a replica'),
      hint: 'connect to the writable node',
    });
    // Wrapped, as drivers wrap: the refused token inside a no-answer is the more specific reading.
    const wrapped = failure({ cause: failure({ code: 'SIXTH_BAD_TOKEN' }) }, 'sixth: no answer from host');
    expect(read(wrapped)).toMatchObject({ code: 'STORE_AUTH_FAILED' });
    expect(read(failure({}, 'sixth: no answer from host'))).toMatchObject({ code: 'STORE_UNREACHABLE' });
    // Without the list line the shared matching knows nothing of the sixth driver.
    expect(connectionError(failure({ code: 'SIXTH_BAD_TOKEN' }), 'sixth', 'x', CONNECTION_ERRORS)).toBeUndefined();
  });

  test("the contract suite's capability flags are its descriptor's", () => {
    const can = capabilitiesOf('sixth', { realTimeExpiry: false, expiryObservedBy: 'none' }, LISTED);
    const { ttlMechanism, ...flags } = sixth.capabilities;
    expect(can).toEqual({
      ...flags,
      realTimeExpiry: false,
      expiryObservedBy: 'none',
      storeName: 'sixth',
      mechanism: ttlMechanism,
    });
    expect(() => capabilitiesOf('sixth', { realTimeExpiry: false, expiryObservedBy: 'none' })).toThrow(
      "no store 'sixth' in the registry",
    );
  });

  test('every listed store reports a declared mechanism for a TTL, and names its driver packages', () => {
    const listed: readonly StoreDescriptor[] = LISTED;
    const undeclared = listed.filter((d) => !d.mechanisms.includes(d.capabilities.ttlMechanism)).map((d) => d.name);
    expect(undeclared).toEqual([]);
    expect(listed.filter((d) => d.driverPackages.length === 0).map((d) => d.name)).toEqual([]);
  });

  test("its folder imports only the shared code, no other store's", () => {
    const folder = path.join(__dirname, '..', 'fixtures', 'sixth-store');
    const providers = path.resolve(__dirname, '..', '..', 'src', 'providers');
    const inside = fs
      .readdirSync(folder)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((file) =>
        ts.preProcessFile(fs.readFileSync(path.join(folder, file), 'utf8'), true, true).importedFiles.map((i) => ({
          file,
          target: path.resolve(folder, i.fileName),
        })),
      )
      .filter(({ target }) => target.startsWith(providers + path.sep) && path.dirname(target) !== providers)
      .map(({ file, target }) => `${file} imports ${path.relative(providers, target)}`);
    expect(inside).toEqual([]);
  });
});
