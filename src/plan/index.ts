// The pure planner: values in, a Plan out.
export { OBSERVE_REASON, planChanges, type PlanContext } from './planner.js';
export { removedByChange, type BaseRemovals, type RemovedResource } from './base.js';
export { isPruneDisabled } from './annotations.js';
export type { SelfIdentity } from './self-lockout.js';
export { isSelected, type Selection, type TargetPattern } from './selection.js';
export { buildNameIndex, resolveIdFromLive } from './references.js';
export { diffFingerprints, diffSavedPlan, fingerprintInputs } from './fingerprint.js';
export { secretHashes } from './secrets.js';
