/**
 * A contract store's capability flags: the store's own read from its descriptor
 * (src/providers/<store>/descriptor.ts, `capabilities`), and what one deployment of it in this
 * test bed adds (a cluster, a server that never expires anything, a fake with its own clock).
 */
import type { Mechanism } from '../../src/explain/entry';
import { DESCRIPTORS } from '../../src/providers/registry';
import type { StoreCapabilities, StoreDescriptor } from '../../src/providers/store-descriptor';

/** What one deployment of a store does in this test bed, beyond the store's own capabilities. */
export interface DeploymentCapabilities {
  /** A record written with a 1 s TTL is gone for the store a few seconds later in this test bed (not the Cosmos server, not the fake). */
  readonly realTimeExpiry: boolean;
  /** Who makes a due record vanish in the test bed: the server itself, a purge, a monitor pass (fake), or nobody. */
  readonly expiryObservedBy: 'server' | 'purge' | 'monitor' | 'none';
  /** A unit of work runs within one partition only (Redis Cluster: one hash slot); one spanning more is refused, nothing written. */
  readonly unitOfWorkInOnePartition?: boolean;
}

export interface Capabilities extends Omit<StoreCapabilities, 'ttlMechanism'>, DeploymentCapabilities {
  /** The value the explain entry's `store` field and every error's `store` carry. */
  readonly storeName: string;
  /** The explain entry's mechanism for an entity with a declared TTL. */
  readonly mechanism: Mechanism;
}

/** The capabilities of a deployment of `store`, the store's part from its descriptor in `descriptors`. */
export function capabilitiesOf(
  store: string,
  deployment: DeploymentCapabilities,
  descriptors: readonly StoreDescriptor[] = DESCRIPTORS,
): Capabilities {
  const descriptor = descriptors.find((d) => d.name === store);
  if (!descriptor) throw new Error(`no store '${store}' in the registry (src/providers/stores.ts)`);
  const { ttlMechanism, ...flags } = descriptor.capabilities;
  return { ...flags, ...deployment, storeName: descriptor.name, mechanism: ttlMechanism };
}
