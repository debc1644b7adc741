import { ErrorCodes } from '../../error-codes';
import {
  badStoreUrl,
  isYes,
  parseStoreUrl,
  YES_NO_VALUES,
  type StoreUrlForm,
  type UrlOptions,
} from '../../core/store-url';
import { LifespanError, StoreError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { CosmosStore } from './store';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The options of a cosmos: URL, all lifespan's own (the endpoint and key come from the environment). */
export const COSMOS_URL_OPTIONS: UrlOptions = {
  selfSigned: { owner: 'lifespan', values: YES_NO_VALUES },
};

const COSMOS_URL: StoreUrlForm = {
  store: STORE,
  what: 'the Cosmos URL',
  example: 'cosmos:<database id>[?selfSigned=true]',
  authority: false,
  options: COSMOS_URL_OPTIONS,
};

/**
 * Opens `cosmos:<database>` for the CLI. The endpoint and key come from COSMOS_ENDPOINT and
 * COSMOS_KEY (a key never belongs in a URL that ends up in shell history). `?selfSigned=true`
 * accepts a self-signed certificate, and only for a loopback endpoint (a local emulator).
 * Opening sends no request and writes nothing: a missing database shows up in plan() as a
 * 'create-database' step, which apply() (and ensureCollections()) runs.
 */
export async function openCosmosUrl(url: string): Promise<OpenedStore> {
  const parsed = parseStoreUrl(url, COSMOS_URL);
  const database = parsed.path;
  const endpoint = process.env.COSMOS_ENDPOINT;
  const key = process.env.COSMOS_KEY;
  if (!/^[A-Za-z0-9_-]+$/.test(database)) {
    throw badStoreUrl(
      STORE,
      'the Cosmos URL must name a database',
      'write it as cosmos:<database id>, with COSMOS_ENDPOINT and COSMOS_KEY set',
    );
  }
  if (!endpoint || !key) {
    throw badStoreUrl(
      STORE,
      'COSMOS_ENDPOINT and COSMOS_KEY must be set for a cosmos: URL',
      'export COSMOS_ENDPOINT=https://<account>.documents.azure.com:443/ and COSMOS_KEY=<key>',
    );
  }
  const host = endpointHost(endpoint);
  const selfSigned = isYes(parsed.own.get('selfSigned'));
  if (selfSigned && !LOOPBACK.has(host)) {
    throw badStoreUrl(
      STORE,
      `selfSigned is only allowed for a loopback endpoint, not ${host}`,
      'remove ?selfSigned=true; a real account has a valid certificate',
    );
  }
  const { CosmosClient } = loadDriver();
  const https = require('node:https') as typeof import('node:https');
  const agent = selfSigned ? new https.Agent({ rejectUnauthorized: false }) : undefined;
  let client: InstanceType<typeof CosmosClient> | undefined;
  const dispose = async (): Promise<void> => {
    client?.dispose();
    agent?.destroy();
  };
  try {
    client = new CosmosClient({
      endpoint,
      key,
      ...(agent ? { agent, connectionPolicy: { enableEndpointDiscovery: false } } : {}),
    });
    // A reference only: the database is read (and created, by apply) when the plan needs it.
    return { store: new CosmosStore({ database: client.database(database) }), secrets: [key], dispose };
  } catch (error) {
    await dispose();
    throw error instanceof LifespanError
      ? error
      : badStoreUrl(
          STORE,
          `could not open the Cosmos DB client for ${host}`,
          'check COSMOS_ENDPOINT and COSMOS_KEY',
          error,
        );
  }
}

/** The host of COSMOS_ENDPOINT, which must be an http(s) URL (checked before the driver sees it). */
function endpointHost(endpoint: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(endpoint);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || !parsed.hostname) {
    // The value is not echoed: a key pasted into the wrong variable must not end up in a log.
    throw badStoreUrl(
      STORE,
      'COSMOS_ENDPOINT is not an http(s) URL',
      'export COSMOS_ENDPOINT=https://<account>.documents.azure.com:443/ (the URI on the Keys page of the account)',
    );
  }
  return parsed.hostname;
}

function loadDriver(): typeof import('@azure/cosmos') {
  try {
    return require('@azure/cosmos') as typeof import('@azure/cosmos');
  } catch (error) {
    throw new StoreError(ErrorCodes.STORE_DRIVER_MISSING, "the driver package '@azure/cosmos' is not installed", {
      store: STORE,
      hint: 'npm install @azure/cosmos@4.9',
      cause: error,
    });
  }
}
