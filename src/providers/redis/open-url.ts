import type { UrlOpener } from '../connection-target';
import { isClusterUrl, openRedisClusterUrl } from './cluster-url';
import { openRedisUrl } from './from-url';

/** The CLI's opener of every Redis URL: `redis+cluster://` names a cluster, `redis://` one server. */
export const openRedisStoreUrl: UrlOpener = (url) => (isClusterUrl(url) ? openRedisClusterUrl(url) : openRedisUrl(url));
