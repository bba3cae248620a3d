export { listKind, readLive } from './read.js';
export { isPerDataset, liveScope, type LiveScope } from './scope.js';
