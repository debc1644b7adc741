'use strict';
/** The Redis 7 server of the Redis cases (REDIS_URL, default 127.0.0.1:6379), and the cleanup of a run's keys. */

async function redisClient() {
  const { createClient } = require('redis');
  const client = createClient({ url: process.env.REDIS_URL || 'redis://127.0.0.1:6379' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Every key under the run's own prefix, through SCAN (`each` sees each batch; default: UNLINK it). */
async function scanKeys(client, prefix, each) {
  let cursor = '0';
  do {
    const [next, keys] = await client.sendCommand(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000']);
    cursor = next;
    if (keys.length > 0) await each(keys);
  } while (cursor !== '0');
}

function deleteKeys(client, prefix) {
  return scanKeys(client, prefix, (keys) => client.sendCommand(['UNLINK', ...keys]));
}

module.exports = { redisClient, scanKeys, deleteKeys };
