export { listKind, readLive, type LiveStore } from './read.js';
export { DEFAULT_LIVE_REUSE_MS, LiveCache } from './live-cache.js';
export { coversInventory, isPerDataset, liveScope, type LiveScope } from './scope.js';
export { QUERY_PATH, withQueryAccess } from './query-access.js';
