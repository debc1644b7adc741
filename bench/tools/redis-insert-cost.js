'use strict';
/**
 * `node bench/tools/redis-insert-cost.js [--store=cluster|server] [--n=2000] [--rounds=8]`: where
 * the Redis insert of cases 9 and 10 (insert with a per-write TTL against SET … NX EX by hand)
 * spends, side by side in interleaved rounds: the client's CPU per write (process.cpuUsage), the
 * servers' CPU per write (INFO cpu of every node, replicas included, and the usec of INFO
 * commandstats), and the commands each primary ran per write (INFO commandstats before/after).
 * Wall-clock is printed but is noise on a shared machine; CPU and command counts are what to compare.
 * It starts its own server(s) on free ports (a cluster through test/servers/redis-cluster.js) and
 * stops them; lifespan is the worktree's dist/ (`npm run build` first).
 */
const { serverStats } = require('./redis-server-stats');
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { createClient, createCluster } = require('redis');
const { startRedisCluster, freePort } = require('../../test/servers/redis-cluster');
const { tcpOpen, sleep } = require('../../test/servers/system');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession, sessionValues, storedSessionJson } = require('../lib/entities');

function parseArgs(argv) {
  const args = { store: 'cluster', n: 2000, rounds: 8, only: null };
  for (const a of argv) {
    const m = /^--(store|n|rounds|only)=(.*)$/.exec(a);
    if (m) args[m[1]] = m[1] === 'store' || m[1] === 'only' ? m[2] : Number(m[2]);
  }
  return args;
}

/** One redis-server of our own (no persistence) on a free port. */
async function startServer() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100 && !(await tcpOpen('127.0.0.1', port, 200)); i++) await sleep(50);
  return { nodes: [`127.0.0.1:${port}`], stop: async () => child.kill('SIGKILL') };
}

/** Per node: calls and usec per command name, and the process's CPU seconds. */
async function snapshot(probes) {
  const out = new Map();
  for (const [node, client] of probes) out.set(node, await serverStats(client));
  return out;
}

function diff(before, after, n) {
  const perNode = {};
  let cpu = 0;
  let usec = 0;
  const cpuOf = {};
  const usecOf = {};
  for (const [node, a] of after) {
    const b = before.get(node);
    cpu += a.cpu - b.cpu;
    cpuOf[node] = +(((a.cpu - b.cpu) * 1e6) / n).toFixed(1);
    const calls = {};
    for (const [name, s] of Object.entries(a.commands)) {
      if (name === 'info') continue;
      const was = b.commands[name] || { calls: 0, usec: 0 };
      const d = s.calls - was.calls;
      if (d > 0) calls[name] = +(d / n).toFixed(3);
      if (d > 0) usecOf[name] = +((usecOf[name] || 0) + (s.usec - was.usec) / n).toFixed(2);
      usec += s.usec - was.usec;
    }
    if (Object.keys(calls).length > 0) perNode[node] = calls;
  }
  return { perNode, cpuOf, usecOf, serverCpuUs: (cpu * 1e6) / n, commandUs: usec / n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const cluster = args.store === 'cluster';
  const bed = cluster ? await startRedisCluster() : await startServer();
  const probes = new Map();
  let client;
  try {
    for (const node of bed.nodes) {
      const c = createClient({ url: `redis://${node}` });
      c.on('error', () => undefined);
      await c.connect();
      probes.set(node, c);
    }
    client = cluster
      ? createCluster({ rootNodes: bed.nodes.map((n) => ({ url: `redis://${n}` })) })
      : createClient({ url: `redis://${bed.nodes[0]}` });
    client.on('error', () => undefined);
    await client.connect();
    const send = cluster ? (key, a) => client.sendCommand(key, false, a) : (_key, a) => client.sendCommand(a);
    const prefix = 'cost:';
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
    await db.ensureCollections();
    const repo = db.repository(BenchSession);
    const unit = (tag, i) =>
      Object.assign(new BenchSession(), sessionValues(i), { id: `${tag}-${i}`, createdAt: new Date() });
    const sides = {
      lifespan: async (tag) => {
        for (let i = 0; i < args.n; i++) await repo.insert(unit(tag, i), { ttl: 600 });
      },
      raw: async (tag) => {
        for (let i = 0; i < args.n; i++) {
          const v = unit(tag, i);
          const key = `${prefix}raw_sessions:${v.id}`;
          const json = JSON.stringify({ ...v, createdAt: v.createdAt.toISOString() });
          if ((await send(key, ['SET', key, json, 'NX', 'EX', '600'])) === null) throw new Error('raw: duplicate');
        }
      },
    };
    // lifespan's own script sent by hand (same keys and arguments): what the script costs the
    // driver and the servers, apart from lifespan's JS (loaded on every node first).
    const {
      INDEXED_COMMAND_SCRIPT,
      slotIndexKey,
      serverIndexKey,
    } = require('../../dist/providers/redis/collection-index');
    const { hashSlot } = require('../../dist/providers/redis/slots');
    sides.script = async (tag) => {
      for (let i = 0; i < args.n; i++) {
        const v = unit(tag, i);
        const key = `${prefix}bench_sessions:${v.id}`;
        const idx = cluster
          ? slotIndexKey(prefix, 'bench_sessions', hashSlot(key))
          : serverIndexKey(prefix, 'bench_sessions');
        const json = storedSessionJson(v);
        const reply = await send(key, [
          'EVALSHA',
          INDEXED_COMMAND_SCRIPT.sha,
          '2',
          key,
          idx,
          'SET',
          json,
          'NX',
          'EX',
          '600',
        ]);
        if (reply === null) throw new Error('script: duplicate');
      }
    };
    for (const c of probes.values()) await c.sendCommand(['SCRIPT', 'LOAD', INDEXED_COMMAND_SCRIPT.source]);
    const seen = { lifespan: [], raw: [], script: [] };
    for (let round = -1; round < args.rounds; round++) {
      const both = round % 2 === 0 ? ['lifespan', 'script', 'raw'] : ['raw', 'script', 'lifespan'];
      // --only=<side> (to profile one side alone with node --cpu-prof)
      const order = args.only ? [args.only] : both;
      for (const side of order) {
        const before = await snapshot(probes);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await sides[side](`${side}${round + 1}`);
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const after = await snapshot(probes);
        if (round < 0) continue; // warm-up (scripts loaded, JIT, slot tags built)
        seen[side].push({
          wall,
          clientUs: (cpu.user + cpu.system) / args.n,
          userUs: cpu.user / args.n,
          ...diff(before, after, args.n),
        });
      }
    }
    for (const side of args.only ? [args.only] : ['lifespan', 'script', 'raw']) {
      const rows = seen[side];
      const pick = (k) => median(rows.map((r) => r[k])).toFixed(1);
      console.log(
        `${side}: wall ${pick('wall')} ms / ${args.n}; client CPU ${pick('clientUs')} µs/write (user ${pick('userUs')}); servers' CPU ${pick('serverCpuUs')} µs/write (command usec ${pick('commandUs')})`,
      );
      const last = rows[rows.length - 1];
      console.log(`  commands per write, per node (last round): ${JSON.stringify(last.perNode)}`);
      console.log(`  server CPU µs per write, per node (last round): ${JSON.stringify(last.cpuOf)}`);
      console.log(`  command usec per write, all nodes (last round): ${JSON.stringify(last.usecOf)}`);
    }
    await db.close();
  } finally {
    if (client?.isOpen) client.destroy();
    for (const c of probes.values()) if (c.isOpen) c.destroy();
    await bed.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
