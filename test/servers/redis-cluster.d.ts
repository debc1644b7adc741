/** Types for redis-cluster.js (plain CommonJS). */
export type NodeCommand = (node: string, args: readonly string[]) => Promise<string | undefined>;

export interface RedisClusterBed {
  /** `127.0.0.1:port` of every node. */
  readonly nodes: readonly string[];
  readonly version: string;
  readonly seconds: number;
  /** Pid of the process group holding every node. */
  readonly pid: number;
  /** SIGKILLs one node (for failover tests). */
  kill(node: string): Promise<void>;
  /** Starts a killed node again with its own config file: it rejoins the cluster (as a replica once it was failed over). */
  restart(node: string): void;
  /** Kills every node and removes the temp dir. */
  stop(): Promise<void>;
  /** Synchronous stop for 'exit' handlers. */
  terminate(): void;
}

export declare function startRedisCluster(): Promise<RedisClusterBed>;
/** True when every node says cluster_state:ok with all slots assigned and every replica's link is up. */
export declare function clusterHealthy(nodes: readonly string[], send?: NodeCommand): Promise<boolean>;
/** One command on one node over a connection of its own; undefined when it does not answer. */
export declare function nodeCommand(node: string, args: readonly string[]): Promise<string | undefined>;
/** Probes that keep one connection per node. */
export declare function nodeProbe(): { command: NodeCommand; close(): void };
export declare function freePort(): Promise<number>;
