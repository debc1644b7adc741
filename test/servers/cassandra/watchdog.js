'use strict';
/**
 * Watchdog for the test Cassandra node: `node watchdog.js <parentPid> <jvmPid> [workDir]`.
 * Started detached by node.js next to the JVM. When the parent process (jest, or start.js) is gone
 * without having stopped the node, e.g. killed by SIGKILL, it stops the JVM's process group
 * (SIGTERM, then SIGKILL after 10 s) and deletes the node's temporary folder. Exits once the JVM is gone.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');

const parent = Number(process.argv[2]);
const jvm = Number(process.argv[3]);
const workDir = process.argv[4];

function removeWorkDir() {
  // Only ever a folder this test bed created in the temp dir.
  if (!workDir || path.dirname(workDir) !== os.tmpdir() || !path.basename(workDir).startsWith('lifespan-cassandra-')) {
    return;
  }
  try {
    fs.rmSync(workDir, { recursive: true, force: true });
  } catch {
    /* best effort */
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function signalGroup(signal) {
  try {
    process.kill(-jvm, signal);
  } catch {
    /* gone */
  }
}

if (!Number.isInteger(parent) || !Number.isInteger(jvm) || parent <= 0 || jvm <= 0) process.exit(2);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => {}); // a Ctrl-C in the terminal is the parent's business

const timer = setInterval(() => {
  if (!alive(jvm)) process.exit(0);
  if (alive(parent)) return;
  clearInterval(timer);
  signalGroup('SIGTERM');
  const started = Date.now();
  const wait = setInterval(() => {
    if (!alive(jvm) || Date.now() - started > 10_000) {
      clearInterval(wait);
      signalGroup('SIGKILL');
      setTimeout(() => {
        removeWorkDir();
        process.exit(0);
      }, 500);
    }
  }, 200);
}, 1000);
