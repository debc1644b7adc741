'use strict';
/**
 * A real single Apache Cassandra 5.0 node for the test suite, run from the Maven Central jars
 * (see pom.xml beside this file and docs/testing.md).
 *
 *   ensureJars()          resolve cassandra-all + runtime deps into .cassandra/lib (skipped when done)
 *   startNode(options)    spawn the JVM (detached process group), wait until CQL answers
 *   cassandraAnswers()    is a node already serving CQL on host:port?
 *
 * Plain CommonJS: used by jest's globalSetup (through ts-jest) and by `node start.js`.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { tail, runChecked, hasCommand, aptInstall, tcpOpen, pidAlive, sleep } = require('../system');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const POM = path.join(__dirname, 'pom.xml');
const CONF_DIR = path.join(__dirname, 'conf');
const CASSANDRA_DIR = path.join(ROOT, '.cassandra');
const LIB_DIR = path.join(CASSANDRA_DIR, 'lib');
/**
 * The node's log, one file per address and CQL port (concurrent runs may start nodes on other
 * ports; cluster nodes listen on other loopback addresses).
 */
const logFile = (port, host = '127.0.0.1') =>
  path.join(CASSANDRA_DIR, host !== '127.0.0.1' ? `node-${host}.log` : port === 9042 ? 'node.log' : `node-${port}.log`);
const LOG_FILE = logFile(9042);
const DEFAULT_JAVA = '/usr/lib/jvm/java-17-openjdk-amd64/bin/java';
const WORK_PREFIX = 'lifespan-cassandra-';
const MAIN_CLASS = 'org.apache.cassandra.service.CassandraDaemon';
const BASE_YAML = path.join(CONF_DIR, 'cassandra.yaml');

/**
 * conf/cassandra.yaml with some top-level keys replaced or added (values are YAML text). Only
 * one-line keys can be replaced; the seed list, which spans lines, is given as `seeds`.
 */
function nodeYaml(overrides) {
  const { seeds, ...keys } = overrides;
  let text = fs.readFileSync(BASE_YAML, 'utf8');
  if (seeds !== undefined) text = text.replace(/seeds: "[^"]*"/, `seeds: "${seeds}"`);
  for (const [key, value] of Object.entries(keys)) {
    const line = new RegExp(`^${key}:.*$`, 'm');
    text = line.test(text) ? text.replace(line, `${key}: ${value}`) : `${text.trimEnd()}\n${key}: ${value}\n`;
  }
  return text;
}

/** The cassandra-all version pinned in pom.xml. */
function cassandraVersion() {
  const match = /<cassandra\.version>([^<]+)<\/cassandra\.version>/.exec(fs.readFileSync(POM, 'utf8'));
  if (!match || !match[1]) throw new Error(`no <cassandra.version> in ${POM}`);
  return match[1].trim();
}

function markerFile(version) {
  return path.join(LIB_DIR, `.resolved-${version}`);
}

/** True when .cassandra/lib holds a complete copy for the pinned version. */
function jarsPresent(version = cassandraVersion()) {
  return fs.existsSync(path.join(LIB_DIR, `cassandra-all-${version}.jar`)) && fs.existsSync(markerFile(version));
}

/**
 * Resolves org.apache.cassandra:cassandra-all and its runtime dependencies from Maven Central into
 * .cassandra/lib with Maven's dependency plugin. Idempotent: returns at once when the jar of the
 * pinned version is there (and the previous copy completed). Returns { skipped, seconds }.
 */
function ensureJars(log = () => {}) {
  return oneAtATime('jars', () => resolveJars(log));
}

/**
 * The single node and the cluster's three nodes start at the same moment in one process: they share
 * one jar resolution (and one Java install) instead of racing to empty .cassandra/lib under each other.
 */
const inFlight = new Map();
function oneAtATime(key, run) {
  if (!inFlight.has(key))
    inFlight.set(
      key,
      run().finally(() => inFlight.delete(key)),
    );
  return inFlight.get(key);
}

async function resolveJars(log) {
  const version = cassandraVersion();
  if (jarsPresent(version)) return { skipped: true, seconds: 0, version };
  const started = Date.now();
  if (!hasCommand('mvn')) await aptInstall(['maven'], log);
  // A half-finished or older copy: start from an empty folder so no stale jar lands on the classpath.
  fs.rmSync(LIB_DIR, { recursive: true, force: true });
  fs.mkdirSync(LIB_DIR, { recursive: true });
  log(`resolving org.apache.cassandra:cassandra-all:${version} from Maven Central into ${LIB_DIR}`);
  await runChecked('mvn', ['-B', '-q', '-f', POM, 'dependency:copy-dependencies', `-Dcassandra.lib=${LIB_DIR}`], {
    cwd: __dirname,
  });
  if (!fs.existsSync(path.join(LIB_DIR, `cassandra-all-${version}.jar`))) {
    throw new Error(`mvn finished but ${LIB_DIR}/cassandra-all-${version}.jar is missing`);
  }
  fs.writeFileSync(markerFile(version), `${new Date().toISOString()}\n`);
  const seconds = (Date.now() - started) / 1000;
  log(`resolved ${fs.readdirSync(LIB_DIR).filter((f) => f.endsWith('.jar')).length} jars in ${seconds.toFixed(1)}s`);
  return { skipped: false, seconds, version };
}

/** The Java 17 binary (Cassandra 5.0 runs on 11 and 17 only; never pick up a newer JAVA_HOME). */
function javaBinary(log = () => {}) {
  return oneAtATime('java', () => findJava(log));
}

async function findJava(log) {
  const java = process.env.LIFESPAN_CASSANDRA_JAVA || DEFAULT_JAVA;
  if (fs.existsSync(java)) return java;
  if (java === DEFAULT_JAVA) {
    await aptInstall(['openjdk-17-jre-headless'], log);
    if (fs.existsSync(java)) return java;
  }
  throw new Error(`Java 17 not found at ${java} (set LIFESPAN_CASSANDRA_JAVA to a Java 17 binary)`);
}

/** JVM options for Cassandra 5.0 on Java 17, after conf/jvm17-server.options and bin/cassandra. */
function jvmArgs({ workDir, heapMin, heapMax, port, storagePort, configFile, systemProperties, jvmOptions = [] }) {
  const jamm = fs.readdirSync(LIB_DIR).find((f) => /^jamm-.*\.jar$/.test(f));
  const exportsList = [
    'java.base/jdk.internal.misc',
    'java.management.rmi/com.sun.jmx.remote.internal.rmi',
    'java.management/com.sun.jmx.remote.security',
    'java.rmi/sun.rmi.registry',
    'java.rmi/sun.rmi.server',
    'java.sql/java.sql',
    'java.base/java.lang.ref',
    'jdk.unsupported/sun.misc',
    'jdk.attach/sun.tools.attach',
    'jdk.compiler/com.sun.tools.javac.file',
  ];
  const opensList = [
    'java.base/java.lang.module',
    'java.base/jdk.internal.loader',
    'java.base/jdk.internal.ref',
    'java.base/jdk.internal.reflect',
    'java.base/jdk.internal.math',
    'java.base/jdk.internal.module',
    'java.base/jdk.internal.util.jar',
    'jdk.management/com.sun.management.internal',
    'java.base/sun.nio.ch',
    'java.base/java.io',
    'java.base/java.lang.reflect',
    'java.base/java.lang',
    'java.base/java.util',
    'java.base/java.nio',
    'jdk.compiler/com.sun.tools.javac',
  ];
  return [
    `-Xms${heapMin}`,
    `-Xmx${heapMax}`,
    '-Xss256k',
    '-XX:+UseG1GC',
    '-XX:+ExitOnOutOfMemoryError',
    '-XX:+PerfDisableSharedMem',
    ...jvmOptions,
    '-Djava.net.preferIPv4Stack=true',
    '-Dchronicle.analytics.disable=true',
    '-Djdk.attach.allowAttachSelf=true',
    ...exportsList.map((m) => `--add-exports=${m}=ALL-UNNAMED`),
    ...opensList.map((m) => `--add-opens=${m}=ALL-UNNAMED`),
    '-Dio.netty.tryReflectionSetAccessible=true',
    '-Dio.netty.allocator.useCacheForAllThreads=true',
    '-Dio.netty.allocator.maxOrder=11',
    ...(jamm ? [`-javaagent:${path.join(LIB_DIR, jamm)}`] : []),
    '-Dcassandra-foreground=yes',
    `-Dcassandra.config=file://${configFile}`,
    `-Dcassandra.storagedir=${path.join(workDir, 'data')}`,
    `-Dcassandra.logdir=${path.join(workDir, 'logs')}`,
    `-Dcassandra.triggers_dir=${path.join(workDir, 'triggers')}`,
    `-Dlogback.configurationFile=${path.join(CONF_DIR, 'logback.xml')}`,
    `-Dcassandra.native_transport_port=${port}`,
    `-Dcassandra.storage_port=${storagePort}`,
    '-Dcassandra.unsafesystem=true',
    '-Dcassandra.skip_wait_for_gossip_to_settle=0',
    '-Dcassandra.ring_delay_ms=1000',
    '-Dcassandra.libjemalloc=-',
    `-Djava.io.tmpdir=${path.join(workDir, 'tmp')}`,
    ...Object.entries(systemProperties).map(([name, value]) => `-D${name}=${value}`),
    '-cp',
    path.join(LIB_DIR, '*'),
    MAIN_CLASS,
  ];
}

/** Removes per-run folders left by earlier runs whose owner process is gone. */
function removeStaleWorkDirs() {
  const tmp = os.tmpdir();
  let entries = [];
  try {
    entries = fs.readdirSync(tmp);
  } catch {
    return;
  }
  for (const name of entries) {
    if (!name.startsWith(WORK_PREFIX)) continue;
    const dir = path.join(tmp, name);
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(path.join(dir, 'jvm.pid'), 'utf8'));
    } catch {
      /* no pid file: a run that never spawned, or one being set up right now */
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 10 * 60 * 1000) continue;
      } catch {
        continue;
      }
    }
    if (Number.isInteger(owner) && owner > 0 && pidAlive(owner)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Who started the node of this test bed that serves `host:port`, if one does: { owner: 'hand' | 'run',
 * jvmPid, parentPid, ... } from its owner.json, or null (no such node, or a Cassandra started some
 * other way). A 'run' node belongs to another jest run, which stops it when that run ends.
 */
function nodeOwner(port, host = '127.0.0.1') {
  const tmp = os.tmpdir();
  let entries = [];
  try {
    entries = fs.readdirSync(tmp).filter((n) => n.startsWith(WORK_PREFIX));
  } catch {
    return null;
  }
  for (const name of entries) {
    try {
      const info = JSON.parse(fs.readFileSync(path.join(tmp, name, 'owner.json'), 'utf8'));
      if (info.port === port && (info.host ?? '127.0.0.1') === host && pidAlive(info.jvmPid)) return info;
    } catch {
      /* not a node folder, or one being set up */
    }
  }
  return null;
}

/**
 * Asks host:port for `SELECT release_version FROM system.local` with the Node driver.
 * Resolves the version string, or null when nothing (or not Cassandra) answers.
 */
async function cassandraAnswers(host = '127.0.0.1', port = 9042, timeoutMs = 5000) {
  if (!(await tcpOpen(host, port, 1000))) return null;
  const { Client } = require('cassandra-driver');
  const client = new Client({
    contactPoints: [`${host}:${port}`],
    localDataCenter: 'datacenter1',
    socketOptions: { connectTimeout: timeoutMs, readTimeout: timeoutMs },
  });
  try {
    const rs = await client.execute('SELECT release_version FROM system.local');
    const row = rs.first();
    return row ? String(row['release_version']) : 'unknown';
  } catch {
    return null;
  } finally {
    await client.shutdown().catch(() => {});
  }
}

/**
 * Starts one node and resolves once it serves CQL (a driver query succeeded), or rejects after
 * `timeoutMs` / when the JVM exits, with the last log lines in the error. The JVM runs in the
 * foreground of its own process group (detached), with its data in a fresh temporary folder that
 * stop() deletes. A watchdog process stops the group if this (parent) process dies without stopping it.
 *
 * options: { port = 9042, storagePort = 7000, heapMin = '256m', heapMax = '512m',
 *            timeoutMs = 120000, echo = false (copy the node's log lines to stdout),
 *            owner = 'run' ('hand' for start.js: test runs may reuse it), log = () => {},
 *            host = '127.0.0.1' (listen and rpc address), yaml = {} (keys of conf/cassandra.yaml
 *            to replace or add, for cluster nodes), systemProperties = {} (or a function of the
 *            node's folder returning them), files = {} (name → text,
 *            written into the node's folder before it starts), jvmOptions = [] (more JVM flags),
 *            cluster = undefined (recorded in owner.json), onSpawn = () => {} (called with
 *            { pid, host, stop, terminate } as soon as the JVM is spawned, before it serves: so a
 *            caller can stop a node that is still starting) }
 * Resolves { pid, port, host, version, workDir, seconds, stop(), stopSync(), lastLines() }.
 */
async function startNode(options = {}) {
  const {
    port = 9042,
    storagePort = 7000,
    heapMin = process.env.LIFESPAN_CASSANDRA_HEAP_MIN || '256m',
    heapMax = process.env.LIFESPAN_CASSANDRA_HEAP_MAX || '512m',
    timeoutMs = 120_000,
    echo = false,
    owner = 'run',
    log = () => {},
    host = '127.0.0.1',
    yaml = {},
    systemProperties = {},
    files = {},
    jvmOptions = [],
    cluster,
    onSpawn = () => {},
  } = options;
  const started = Date.now();
  const java = await javaBinary(log);
  await ensureJars(log);

  removeStaleWorkDirs();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), WORK_PREFIX));
  for (const sub of ['data', 'logs', 'triggers', 'tmp']) fs.mkdirSync(path.join(workDir, sub));
  fs.mkdirSync(CASSANDRA_DIR, { recursive: true });
  const nodeLog = logFile(port, host);
  const logStream = fs.createWriteStream(nodeLog, { flags: 'w' });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(workDir, name), text);
  const configFile =
    Object.keys(yaml).length === 0 && host === '127.0.0.1' ? BASE_YAML : path.join(workDir, 'cassandra.yaml');
  if (configFile !== BASE_YAML)
    fs.writeFileSync(configFile, nodeYaml({ listen_address: host, rpc_address: host, ...yaml }));

  const properties = typeof systemProperties === 'function' ? systemProperties(workDir) : systemProperties;
  const args = jvmArgs({
    workDir,
    heapMin,
    heapMax,
    port,
    storagePort,
    configFile,
    systemProperties: properties,
    jvmOptions,
  });
  const child = spawn(java, args, {
    cwd: workDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MALLOC_ARENA_MAX: '4' },
  });
  if (child.pid === undefined) {
    await new Promise((resolve) => child.once('error', resolve));
    throw new Error(`could not spawn ${java}`);
  }
  const pid = child.pid;
  fs.writeFileSync(path.join(workDir, 'jvm.pid'), String(pid));
  fs.writeFileSync(
    path.join(workDir, 'owner.json'),
    JSON.stringify({
      owner,
      host,
      port,
      storagePort,
      ...(cluster === undefined ? {} : { cluster }),
      jvmPid: pid,
      parentPid: process.pid,
      started: new Date().toISOString(),
    }),
  );

  // Drain both pipes for the node's whole life: a full pipe would block the JVM's logging.
  const recent = [];
  const waiters = [];
  const onLine = (line) => {
    recent.push(line);
    if (recent.length > 400) recent.shift();
    logStream.write(`${line}\n`);
    if (echo) process.stdout.write(`${line}\n`);
    for (const w of waiters) w(line);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
  }
  const lastLines = (n = 25) => tail(recent.join('\n'), n);

  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });
  // Neither the pipes nor the child keep the parent's event loop alive.
  child.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  child.stdout.on('error', () => {});
  child.stderr.on('error', () => {});

  // Watchdog: if this process dies (even by SIGKILL), stop the JVM's process group.
  const watchdog = spawn(
    process.execPath,
    [path.join(__dirname, 'watchdog.js'), String(process.pid), String(pid), workDir],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  watchdog.unref();

  let stopping = null;
  const signalGroup = (signal) => {
    try {
      process.kill(-pid, signal);
    } catch {
      /* already gone */
    }
  };
  const cleanup = () => {
    logStream.end();
    fs.rmSync(workDir, { recursive: true, force: true });
    try {
      if (watchdog.pid) process.kill(watchdog.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  /** SIGTERM to the process group, SIGKILL after `graceMs`; resolves when the JVM has exited. */
  const stop = (graceMs = 10_000) => {
    if (stopping) return stopping;
    stopping = (async () => {
      // The child is unref'd while it serves; while waiting for its exit it must keep this process
      // alive, or node would quit mid-await (silently, with code 0) once nothing else is pending.
      child.ref();
      if (!exited) {
        // A paused (SIGSTOP) JVM only acts on SIGTERM once it runs again.
        signalGroup('SIGCONT');
        signalGroup('SIGTERM');
        let timer;
        const timeout = new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs, 'timeout');
        });
        const outcome = await Promise.race([exitPromise, timeout]);
        clearTimeout(timer);
        if (outcome === 'timeout') {
          signalGroup('SIGKILL');
          await exitPromise;
        }
      }
      signalGroup('SIGKILL'); // any stray child of the group
      cleanup();
    })();
    return stopping;
  };
  /**
   * For signal and 'exit' handlers, where nothing asynchronous runs: SIGTERM to the group, at once.
   * The watchdog escalates to SIGKILL and deletes the data folder once this process has exited.
   */
  const terminate = () => {
    if (exited) return;
    signalGroup('SIGCONT');
    signalGroup('SIGTERM');
  };
  /** SIGKILL the group and delete the data, synchronously. */
  const stopSync = () => {
    signalGroup('SIGKILL');
    try {
      fs.rmSync(workDir, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  };

  onSpawn({ pid, host, stop, terminate });

  const failure = (reason) =>
    new Error(
      `Cassandra node did not start: ${reason}\n` +
        `command: ${java} ${args.join(' ')}\nlast log lines (full log: ${nodeLog}):\n${lastLines()}`,
    );

  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(failure(`not ready after ${timeoutMs / 1000}s`)), timeoutMs);
      const settle = (fn, value) => {
        clearTimeout(timer);
        waiters.length = 0;
        fn(value);
      };
      waiters.push((line) => {
        if (line.includes('Startup complete')) settle(resolve);
        else if (
          /Failed to bind port|is in use by another process|Not starting native transport|Not starting client transports/.test(
            line,
          )
        ) {
          settle(reject, failure(line.trim()));
        }
      });
      exitPromise.then(({ code, signal }) =>
        settle(reject, failure(`the JVM exited (code ${code}, signal ${signal})`)),
      );
      for (const line of recent) waiters[0]?.(line);
    });
    // "Startup complete" is logged after the transports start; confirm with a real query.
    let version = null;
    for (let i = 0; i < 20 && !version && !exited; i++) {
      version = await cassandraAnswers(host, port);
      if (!version) await sleep(250);
    }
    if (!version) throw failure('"Startup complete" was logged but SELECT release_version failed');
    return {
      pid,
      host,
      port,
      version,
      workDir,
      logFile: nodeLog,
      seconds: (Date.now() - started) / 1000,
      stop,
      stopSync,
      terminate,
      lastLines,
    };
  } catch (err) {
    await stop(3000);
    throw err;
  }
}

module.exports = {
  ROOT,
  LIB_DIR,
  LOG_FILE,
  cassandraVersion,
  jarsPresent,
  ensureJars,
  startNode,
  cassandraAnswers,
  nodeOwner,
};
