/** Types for node.js (plain CommonJS, so that `node test/servers/cassandra/start.js` runs without a build). */
export declare const ROOT: string;
export declare const LIB_DIR: string;
export declare const LOG_FILE: string;
export declare function cassandraVersion(): string;
export declare function jarsPresent(version?: string): boolean;
export declare function ensureJars(
  log?: (message: string) => void,
): Promise<{ skipped: boolean; seconds: number; version: string }>;
export declare function cassandraAnswers(host?: string, port?: number, timeoutMs?: number): Promise<string | null>;

export interface StartNodeOptions {
  port?: number;
  storagePort?: number;
  heapMin?: string;
  heapMax?: string;
  timeoutMs?: number;
  echo?: boolean;
  /** 'hand' (start.js): test runs may reuse it; 'run' (default): owned by a jest run, which stops it. */
  owner?: 'hand' | 'run';
  log?: (message: string) => void;
  /** Listen and rpc address (default 127.0.0.1). */
  host?: string;
  /** Top-level keys of conf/cassandra.yaml to replace or add (values as YAML text); `seeds` sets the seed list. */
  yaml?: Record<string, string>;
  /** -D system properties, or a function of the node's folder returning them. */
  systemProperties?: Record<string, string> | ((workDir: string) => Record<string, string>);
  /** Files (name → text) written into the node's folder before it starts. */
  files?: Record<string, string>;
  /** More JVM flags, after the heap and GC flags. */
  jvmOptions?: string[];
  /** The cluster's name, recorded in owner.json. */
  cluster?: string;
  /** Called as soon as the JVM is spawned, before it serves: a node still starting can be stopped. */
  onSpawn?: (node: SpawnedNode) => void;
}

/** A node from the moment its JVM is spawned. */
export interface SpawnedNode {
  pid: number;
  host: string;
  stop(graceMs?: number): Promise<void>;
  terminate(): void;
}

export interface NodeOwner {
  owner: 'hand' | 'run';
  /** Absent in the owner.json of nodes started before the cluster existed: 127.0.0.1. */
  host?: string;
  port: number;
  storagePort: number;
  jvmPid: number;
  parentPid: number;
  started: string;
}

/** The owner.json of the test-bed node serving `host:port`, or null (none, or a Cassandra started otherwise). */
export declare function nodeOwner(port: number, host?: string): NodeOwner | null;

export interface CassandraNode {
  pid: number;
  host: string;
  port: number;
  version: string;
  workDir: string;
  logFile: string;
  /** Seconds from the call to a successful CQL query, jar check included. */
  seconds: number;
  /** SIGTERM to the process group, SIGKILL after graceMs (default 10 s); deletes the data folder. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL to the process group and delete the data folder, synchronously. */
  stopSync(): void;
  /**
   * SIGTERM to the process group, synchronously (for signal and 'exit' handlers); the node's watchdog
   * escalates to SIGKILL after 10 s and deletes the data folder once this process has exited.
   */
  terminate(): void;
  lastLines(n?: number): string;
}

export declare function startNode(options?: StartNodeOptions): Promise<CassandraNode>;
