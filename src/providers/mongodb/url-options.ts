import { driverOptions, type UrlOptions } from '../../core/store-url';

/**
 * The options of a mongodb:// URL: lifespan's `hideExpired`, taken off before the driver sees the
 * URL, and the connection string options of the MongoDB Node.js driver
 * (https://www.mongodb.com/docs/manual/reference/connection-string-options/), which the driver
 * reads in any case and checks itself.
 */
export const MONGO_URL_OPTIONS: UrlOptions = {
  hideExpired: { owner: 'lifespan', values: ['true', 'false', '1', '0'] },
  ...driverOptions(
    [
      'appName',
      'authMechanism',
      'authMechanismProperties',
      'authSource',
      'compressors',
      'connectTimeoutMS',
      'directConnection',
      'heartbeatFrequencyMS',
      'journal',
      'loadBalanced',
      'localThresholdMS',
      'maxConnecting',
      'maxIdleTimeMS',
      'maxPoolSize',
      'maxStalenessSeconds',
      'minPoolSize',
      'proxyHost',
      'proxyPassword',
      'proxyPort',
      'proxyUsername',
      'readConcernLevel',
      'readPreference',
      'readPreferenceTags',
      'replicaSet',
      'retryReads',
      'retryWrites',
      'serverMonitoringMode',
      'serverSelectionTimeoutMS',
      'socketTimeoutMS',
      'srvMaxHosts',
      'srvServiceName',
      'ssl',
      'timeoutMS',
      'tls',
      'tlsAllowInvalidCertificates',
      'tlsAllowInvalidHostnames',
      'tlsCAFile',
      'tlsCertificateKeyFile',
      'tlsCertificateKeyFilePassword',
      'tlsCRLFile',
      'tlsInsecure',
      'w',
      'waitQueueTimeoutMS',
      'wtimeoutMS',
      'zlibCompressionLevel',
    ],
    ['readPreferenceTags'],
  ),
};
