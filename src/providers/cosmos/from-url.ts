import { LifespanError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { CosmosStore } from './store';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Opens `cosmos:<database>` for the CLI. The endpoint and key come from COSMOS_ENDPOINT and
 * COSMOS_KEY (a key never belongs in a URL that ends up in shell history). `?selfSigned=true`
 * accepts a self-signed certificate, and only for a loopback endpoint (a local emulator).
 */
export async function openCosmosUrl(url: string): Promise<OpenedStore> {
  const match = /^cosmos:(?:\/\/)?([A-Za-z0-9_-]+)(?:\?(.*))?$/.exec(url);
  const endpoint = process.env.COSMOS_ENDPOINT;
  const key = process.env.COSMOS_KEY;
  if (!match?.[1]) {
    throw new LifespanError('COSMOS_URL_NO_DATABASE', 'the Cosmos URL must name a database', {
      store: STORE,
      hint: 'write it as cosmos:<database id>, with COSMOS_ENDPOINT and COSMOS_KEY set',
    });
  }
  if (!endpoint || !key) {
    throw new LifespanError('COSMOS_URL_NO_ENDPOINT', 'COSMOS_ENDPOINT and COSMOS_KEY must be set for a cosmos: URL', {
      store: STORE,
      hint: 'export COSMOS_ENDPOINT=https://<account>.documents.azure.com:443/ and COSMOS_KEY=<key>',
    });
  }
  const selfSigned = /(^|&)selfSigned=(true|1)(&|$)/.test(match[2] ?? '');
  const host = new URL(endpoint).hostname;
  if (selfSigned && !LOOPBACK.has(host)) {
    throw new LifespanError(
      'COSMOS_SELF_SIGNED_REMOTE',
      `selfSigned is only allowed for a loopback endpoint, not ${host}`,
      {
        store: STORE,
        hint: 'remove ?selfSigned=true; a real account has a valid certificate',
      },
    );
  }
  const { CosmosClient } = require('@azure/cosmos') as typeof import('@azure/cosmos');
  const https = require('node:https') as typeof import('node:https');
  const client = new CosmosClient({
    endpoint,
    key,
    ...(selfSigned
      ? { agent: new https.Agent({ rejectUnauthorized: false }), connectionPolicy: { enableEndpointDiscovery: false } }
      : {}),
  });
  // The database is the container's parent: creating it when missing is additive, like a table's schema.
  const { database } = await client.databases.createIfNotExists({ id: match[1] });
  return {
    store: new CosmosStore({ database }),
    secrets: [key],
    dispose: async () => client.dispose(),
  };
}
