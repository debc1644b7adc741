'use strict';
/**
 * `node bench/tools/redis-insert-js.js [--n=20000] [--rounds=12]`: the client-side JavaScript of
 * the Redis insert of case 9, apart from the network and the server. lifespan's
 * `repository.insert(e, { ttl: 600 })` and the same EVALSHA built by hand (the entity's JSON, its
 * key and index key) both send to a client stub that answers at once, in interleaved rounds; it
 * prints the CPU per insert of each (process.cpuUsage, median of the rounds after two warm-ups).
 * lifespan is the worktree's dist/ (`npm run build` first).
 */
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, sessionValues, storedSessionJson } = require('../lib/entities');
const { RedisStore } = require('../../dist/providers/redis');
const { INDEXED_COMMAND_SCRIPT, serverIndexKey } = require('../../dist/providers/redis/collection-index');

function parseArgs(argv) {
  const args = { n: 20000, rounds: 12 };
  for (const a of argv) {
    const m = /^--(n|rounds)=(\d+)$/.exec(a);
    if (m) args[m[1]] = Number(m[2]);
  }
  return args;
}

/** A client that answers as Redis 7 would, without a server: INFO for connect(), OK for every write. */
const stub = {
  async sendCommand(args) {
    if (args[0] === 'INFO') return 'redis_version:7.0.15\r\n';
    return 'OK';
  },
};

async function main() {
  const { n, rounds } = parseArgs(process.argv.slice(2));
  const prefix = 'js:';
  const db = await lifespan.connect(benchModel(), new RedisStore({ client: stub, prefix }));
  const repo = db.repository(BenchSession);
  const unit = (tag, i) =>
    Object.assign(new BenchSession(), sessionValues(i), { id: `${tag}-${i}`, createdAt: new Date() });
  const sides = {
    lifespan: async (tag) => {
      for (let i = 0; i < n; i++) await repo.insert(unit(tag, i), { ttl: 600 });
    },
    byHand: async (tag) => {
      for (let i = 0; i < n; i++) {
        const v = unit(tag, i);
        const key = `${prefix}bench_sessions:${v.id}`;
        const json = storedSessionJson(v);
        const idx = serverIndexKey(prefix, 'bench_sessions');
        await stub.sendCommand(['EVALSHA', INDEXED_COMMAND_SCRIPT.sha, '2', key, idx, 'SET', json, 'NX', 'EX', '600']);
      }
    },
  };
  const seen = { lifespan: [], byHand: [] };
  for (let round = 0; round < rounds + 2; round++) {
    for (const side of round % 2 ? ['lifespan', 'byHand'] : ['byHand', 'lifespan']) {
      const before = process.cpuUsage();
      await sides[side](`${side}${round}`);
      const cpu = process.cpuUsage(before);
      if (round >= 2) seen[side].push((cpu.user + cpu.system) / n);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const side of ['lifespan', 'byHand']) console.log(`${side}: ${median(seen[side]).toFixed(2)} µs CPU per insert`);
  await db.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
