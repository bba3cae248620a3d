export { createApiClient, DEFAULT_MAX_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './client.js';
export { addConnectionOptions, resolveConnection, type ConnectionFlags } from './connection.js';
export { ApiError, ConfigError } from './errors.js';
export type { ApiClient, ApiRequest, ApiResponse, ApiStats, ConnectionConfig, HttpMethod } from './types.js';
