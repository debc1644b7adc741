'use strict';
/**
 * One Redis server's calls and microseconds per command (`INFO commandstats`) and its process's
 * CPU seconds (`INFO cpu`): what bench/tools/redis-insert-cost.js and redis-page-cost.js subtract
 * before from after a side's work.
 */
async function serverStats(client) {
  const stats = String(await client.sendCommand(['INFO', 'commandstats']));
  const cpu = String(await client.sendCommand(['INFO', 'cpu']));
  const commands = {};
  for (const m of stats.matchAll(/^cmdstat_(\S+?):calls=(\d+),usec=(\d+)/gm)) {
    commands[m[1]] = { calls: Number(m[2]), usec: Number(m[3]) };
  }
  const f = (name) => Number((new RegExp(`^${name}:(\\S+)`, 'm').exec(cpu) || [])[1] || 0);
  return { commands, cpu: f('used_cpu_user') + f('used_cpu_sys') };
}

module.exports = { serverStats };
