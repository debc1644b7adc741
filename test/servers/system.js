'use strict';
/**
 * Small helpers shared by the test-bed server scripts (plain CommonJS so they run with plain node):
 * running a command with captured output, Debian package installs, and TCP probes.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');

/** Last `n` non-empty lines of a text, for error messages. */
function tail(text, n = 20) {
  return String(text)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');
}

/**
 * Runs a command to completion. Resolves with { code, output } (stdout and stderr interleaved);
 * never rejects on a non-zero exit, only when the command cannot be spawned.
 */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.length > 1_000_000) output = output.slice(-500_000);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/** Runs a command and throws (with the last lines of its output) when it fails. */
async function runChecked(cmd, args, options = {}) {
  const what = [cmd, ...args].join(' ');
  let result;
  try {
    result = await run(cmd, args, options);
  } catch (err) {
    throw new Error(`${what}: ${err.message}`);
  }
  if (result.code !== 0) {
    throw new Error(`\`${what}\` exited with code ${result.code}:\n${tail(result.output)}`);
  }
  return result.output;
}

/** True when `cmd` is found on the PATH. */
function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

let aptUpdated = false;
/**
 * Installs Debian packages with apt-get (root only). Used on a fresh machine that lacks a server
 * or tool the test bed needs. Throws with apt's last lines when it fails.
 */
async function aptInstall(packages, log = () => {}) {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`missing ${packages.join(', ')}; install as root: apt-get install -y ${packages.join(' ')}`);
  }
  if (!hasCommand('apt-get')) throw new Error(`missing ${packages.join(', ')} and no apt-get to install them`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log('apt-get update');
    await runChecked('apt-get', ['update'], { env });
    aptUpdated = true;
  }
  log(`apt-get install -y ${packages.join(' ')}`);
  await runChecked('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
}

/** Resolves true when a TCP connection to host:port succeeds within `timeoutMs`. */
function tcpOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when a process with this pid exists. */
function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function exists(file) {
  return fs.existsSync(file);
}

module.exports = { tail, run, runChecked, hasCommand, aptInstall, tcpOpen, pidAlive, sleep, exists };
