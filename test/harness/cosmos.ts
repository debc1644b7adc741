/**
 * Cosmos DB helpers for test files.
 *
 * startCosmosServer(): @vercel/cosmosdb-server in-process on a random 127.0.0.1 port, with a real
 * @azure/cosmos client. The server's bundled certificate expired in 2021, so this client alone gets
 * an https.Agent with rejectUnauthorized: false (never a process-wide NODE_TLS_REJECT_UNAUTHORIZED).
 * The server stores container defaultTtl and item ttl but never expires anything: tests may check
 * what was configured, never that expiry happened.
 *
 * liveCosmosClient(): a client for the real endpoint in COSMOS_ENDPOINT / COSMOS_KEY (full TLS checks).
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { CosmosClient, type CosmosClientOptions } from '@azure/cosmos';
import { createHttpsServer } from '@vercel/cosmosdb-server';
import { requireStore } from './stores';

/** The well-known key of the Cosmos DB emulator; the protocol server accepts any key. */
export const LOCAL_COSMOS_KEY =
  'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

export interface LocalCosmos {
  endpoint: string;
  client: CosmosClient;
  close(): Promise<void>;
}

/** Starts the protocol server in this process; call close() in afterAll. */
export async function startCosmosServer(options: Partial<CosmosClientOptions> = {}): Promise<LocalCosmos> {
  requireStore('cosmos');
  return launchCosmosServer(options);
}

/** startCosmosServer() without the store check (used by globalSetup to prove the store works). */
export async function launchCosmosServer(options: Partial<CosmosClientOptions> = {}): Promise<LocalCosmos> {
  const server = createHttpsServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `https://127.0.0.1:${port}`;
  // Only for this local server's client: its certificate is self-signed and expired.
  const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true });
  const client = new CosmosClient({ endpoint, key: LOCAL_COSMOS_KEY, agent, ...options });
  let closed = false;
  return {
    endpoint,
    client,
    async close() {
      if (closed) return;
      closed = true;
      client.dispose();
      agent.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** True when COSMOS_ENDPOINT and COSMOS_KEY are set (the live suite runs). */
export function liveCosmosConfigured(): boolean {
  return Boolean(process.env['COSMOS_ENDPOINT'] && process.env['COSMOS_KEY']);
}

/** A client for the real Cosmos DB account in COSMOS_ENDPOINT / COSMOS_KEY; call dispose() when done. */
export function liveCosmosClient(options: Partial<CosmosClientOptions> = {}): CosmosClient {
  const endpoint = process.env['COSMOS_ENDPOINT'];
  const key = process.env['COSMOS_KEY'];
  if (!endpoint || !key) throw new Error('liveCosmosClient() needs COSMOS_ENDPOINT and COSMOS_KEY');
  return new CosmosClient({ endpoint, key, ...options });
}
