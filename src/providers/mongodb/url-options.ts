import { driverOptions, YES_NO_VALUES, type UrlOptions } from '../../core/store-url';

/**
 * The options of a mongodb:// URL: lifespan's `hideExpired`, taken off before the driver sees the
 * URL, and the connection string options of the MongoDB Node.js driver
 * (https://www.mongodb.com/docs/manual/reference/connection-string-options/), which the driver
 * reads in any case and checks itself (names not listed here are passed on too: the driver
 * refuses those it does not know; this list gives the "did you mean" of its refusal).
 */
export const MONGO_URL_OPTIONS: UrlOptions = {
  hideExpired: { owner: 'lifespan', values: YES_NO_VALUES },
  ...driverOptions(
    [
      'appName',
      'authMechanism',
      'authMechanismProperties',
      'authSource',
      'autoSelectFamily',
      'autoSelectFamilyAttemptTimeout',
      'compressors',
      'connectTimeoutMS',
      'directConnection',
      'enableUtf8Validation',
      'heartbeatFrequencyMS',
      'j',
      'journal',
      'loadBalanced',
      'localThresholdMS',
      'maxConnecting',
      'maxIdleTimeMS',
      'maxPoolSize',
      'maxStalenessSeconds',
      'minHeartbeatFrequencyMS',
      'minPoolSize',
      'proxyHost',
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
      'tlsCRLFile',
      'tlsInsecure',
      'w',
      'waitQueueTimeoutMS',
      'wtimeout',
      'wtimeoutMS',
      'zlibCompressionLevel',
    ],
    {
      proxyPassword: { secret: true },
      readPreferenceTags: { repeatable: true },
      tlsCertificateKeyFilePassword: { secret: true },
    },
  ),
};
