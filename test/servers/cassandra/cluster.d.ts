/** Types for cluster.js (plain CommonJS, like node.js). */
import type { CassandraNode, NodeOwner, SpawnedNode } from './node';

export declare const HOSTS: readonly string[];
export declare const NATIVE_PORT: number;
export declare const STORAGE_PORT: number;
export declare const CLUSTER_NAME: string;
export declare const DATACENTER: string;

export interface StartClusterOptions {
  heapMin?: string;
  heapMax?: string;
  owner?: 'hand' | 'run';
  log?: (message: string) => void;
  timeoutMs?: number;
  /** JVM flags of every node (default: -XX:TieredStopAtLevel=1). */
  jvmOptions?: string[];
  /** Called with each node as soon as its JVM is spawned (to stop a cluster still starting). */
  onSpawn?: (node: SpawnedNode) => void;
}

export interface CassandraCluster {
  nodes: CassandraNode[];
  hosts: readonly string[];
  port: number;
  version: string;
  /** Seconds from the call until every node saw the two others in its ring. */
  seconds: number;
  stop(): Promise<void>;
  /** SIGTERM to every node's process group, synchronously (signal and 'exit' handlers). */
  terminate(): void;
}

export declare function startCluster(options?: StartClusterOptions): Promise<CassandraCluster>;

export interface AnsweringNode {
  host: string;
  version: string;
  /** owner.json of a node this test bed started (its jvmPid), or null for one started otherwise. */
  owner: NodeOwner | null;
}

/** The three nodes when each serves CQL; null when none does; throws when only some do. */
export declare function clusterAnswers(): Promise<AnsweringNode[] | null>;
