'use strict';
/**
 * `node bench/tools/redis-page-cost.js [--rows=100000] [--pages=50] [--rounds=8]`: where case 10's
 * Redis findPage (pages of 1,000 from the start, no filter, one server) spends against the raw
 * SCAN + MGET + JSON.parse walk, side by side in interleaved rounds: the client's CPU per walk
 * (process.cpuUsage), the server's CPU (INFO cpu) and the commands it ran (INFO commandstats,
 * calls and usec per command). Wall-clock is printed but is noise on a shared machine. It starts
 * its own redis-server on a free port and stops it; lifespan is the worktree's dist/ (`npm run
 * build` first).
 */
const { serverStats } = require('./redis-server-stats');
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { createClient } = require('redis');
const { freePort } = require('../../test/servers/redis-cluster');
const { tcpOpen, sleep } = require('../../test/servers/system');
const lifespan = require('../lib/lifespan');
const { benchModel, BenchSession } = require('../lib/entities');

function parseArgs(argv) {
  const args = { rows: 100000, pages: 50, rounds: 8, only: null };
  for (const a of argv) {
    const m = /^--(rows|pages|rounds)=(\d+)$/.exec(a);
    if (m) args[m[1]] = Number(m[2]);
    // --only=<side>: one side alone (to profile it with node --cpu-prof)
    const only = /^--only=(lifespan|raw)$/.exec(a);
    if (only) args.only = only[1];
  }
  return args;
}

const snapshot = serverStats;

function diff(b, a) {
  const commands = {};
  for (const [name, s] of Object.entries(a.commands)) {
    const was = b.commands[name] || { calls: 0, usec: 0 };
    if (name !== 'info' && s.calls > was.calls)
      commands[name] = `${s.calls - was.calls}× ${((s.usec - was.usec) / 1000).toFixed(1)} ms`;
  }
  return { commands, serverMs: (a.cpu - b.cpu) * 1000 };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  let client;
  let probe;
  try {
    for (let i = 0; i < 100 && !(await tcpOpen('127.0.0.1', port, 200)); i++) await sleep(50);
    client = createClient({ url: `redis://127.0.0.1:${port}` });
    probe = createClient({ url: `redis://127.0.0.1:${port}` });
    for (const c of [client, probe]) {
      c.on('error', () => undefined);
      await c.connect();
    }
    const prefix = 'pages:';
    const { RedisStore } = require('../../dist/providers/redis');
    const db = await lifespan.connect(benchModel(), new RedisStore({ client, prefix }));
    await db.ensureCollections();
    const repo = db.repository(BenchSession);
    for (let start = 0; start < args.rows; start += 1000) {
      const batch = [];
      for (let i = start; i < Math.min(args.rows, start + 1000); i++) {
        const s = Object.assign(new BenchSession(), {
          id: `s${i}`,
          owner: `o${i % 1000}`,
          payload: `${'p'.repeat(90)}${i}`,
          hits: i,
        });
        batch.push(repo.upsert(s, { ttl: 3600 }));
      }
      await Promise.all(batch);
    }
    const entityOf = (row) => Object.assign(new BenchSession(), row, { createdAt: new Date(row.createdAt) });
    const pattern = `${prefix}bench_sessions:*`;
    const sides = {
      lifespan: async () => {
        let cursor;
        for (let p = 0; p < args.pages; p++) {
          const page = await repo.findPage({}, cursor === undefined ? { limit: 1000 } : { limit: 1000, cursor });
          if (page.items.length === 0 || !page.cursor) throw new Error('lifespan: out of pages');
          cursor = page.cursor;
        }
      },
      raw: async () => {
        let after = '0';
        for (let p = 0; p < args.pages; p++) {
          const [next, keys] = await client.sendCommand([
            'SCAN',
            after,
            'MATCH',
            pattern,
            'COUNT',
            '1000',
            'TYPE',
            'string',
          ]);
          const texts = keys.length === 0 ? [] : await client.sendCommand(['MGET', ...keys]);
          texts.filter((t) => t !== null).map((t) => entityOf(JSON.parse(t)));
          after = next;
        }
      },
    };
    const seen = { lifespan: [], raw: [] };
    for (let round = -1; round < args.rounds; round++) {
      const both = round % 2 === 0 ? ['lifespan', 'raw'] : ['raw', 'lifespan'];
      for (const side of args.only ? [args.only] : both) {
        const before = await snapshot(probe);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await sides[side]();
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        const after = await snapshot(probe);
        if (round >= 0) seen[side].push({ wall, clientMs: (cpu.user + cpu.system) / 1000, ...diff(before, after) });
      }
    }
    for (const side of args.only ? [args.only] : ['lifespan', 'raw']) {
      const rows = seen[side];
      const pick = (k) => median(rows.map((r) => r[k])).toFixed(1);
      console.log(
        `${side}: wall ${pick('wall')} ms; client CPU ${pick('clientMs')} ms; server CPU ${pick('serverMs')} ms per ${args.pages} pages`,
      );
      console.log(`  commands (last round): ${JSON.stringify(rows[rows.length - 1].commands)}`);
    }
    if (!args.only) {
      const ratios = seen.lifespan.map((r, i) => r.clientMs / seen.raw[i].clientMs);
      console.log(`client CPU lifespan/raw per round: median ${median(ratios).toFixed(2)}×`);
    }
    await db.close();
  } finally {
    for (const c of [client, probe]) if (c?.isOpen) c.destroy();
    server.kill('SIGKILL');
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
