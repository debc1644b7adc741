'use strict';
/**
 * `node bench/tools/profile-top.js <file.cpuprofile> [--top=25] [--under=<function>]`: where a V8
 * CPU profile (node --cpu-prof, or `npm run bench -- --profile`) spends its time: self time per
 * function and per package / file group, optionally only in samples whose stack holds <function>.
 */
const fs = require('node:fs');
const path = require('node:path');

function parseArgs(argv) {
  const args = { file: null, top: 25, under: null };
  for (const a of argv) {
    const m = /^--(top|under)=(.*)$/.exec(a);
    if (m) args[m[1]] = m[1] === 'top' ? Number(m[2]) : m[2];
    else args.file = a;
  }
  if (!args.file) {
    process.stderr.write('usage: node bench/tools/profile-top.js <file.cpuprofile> [--top=25] [--under=<function>]\n');
    process.exit(2);
  }
  return args;
}

/** lifespan's own files, a package under node_modules, node's internals, or the native/VM buckets. */
function groupOf(frame) {
  const url = frame.url || '';
  if (!url) return `(${frame.functionName || 'native'})`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/dist/')) return `lifespan ${url.slice(url.indexOf('/dist/') + 6)}`;
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/bench/')) return `bench ${url.slice(url.indexOf('/bench/') + 7)}`;
  return path.basename(url);
}

function main() {
  // `| head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const args = parseArgs(process.argv.slice(2));
  const profile = JSON.parse(fs.readFileSync(args.file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const underMatch = (id) => {
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      if (byId.get(cur).callFrame.functionName === args.under) return true;
    }
    return false;
  };
  const selfUs = new Map();
  const groupUs = new Map();
  let total = 0;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = timeDeltas[i + 1] ?? 0;
    const id = samples[i];
    if (args.under && !underMatch(id)) continue;
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
    total += dt;
    const key = `${frame.functionName || '(anonymous)'}  ${groupOf(frame)}:${frame.lineNumber + 1}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
    const g = groupOf(frame);
    groupUs.set(g, (groupUs.get(g) ?? 0) + dt);
  }
  const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(8)} ms`;
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  process.stdout.write(
    `${args.file}: ${(total / 1000).toFixed(1)} ms of samples${args.under ? ` under ${args.under}` : ''}\n\n`,
  );
  process.stdout.write('by group (self time):\n');
  for (const [g, us] of top(groupUs, 20)) process.stdout.write(`  ${pct(us)}  ${g}\n`);
  process.stdout.write(`\ntop ${args.top} functions (self time):\n`);
  for (const [f, us] of top(selfUs, args.top)) process.stdout.write(`  ${pct(us)}  ${f}\n`);
}

main();
