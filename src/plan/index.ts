// The pure planner: values in, a Plan out.
export { ACTIONS, OBSERVE_REASON, planChanges } from './planner.js';
export { buildNameIndex, checkReferences, NameIndex, referenceKey, referenceUses, resolveIdFromLive } from './references.js';
export type { ReferenceUse } from './references.js';
export { diffFingerprints, diffSavedPlan, fingerprintInputs } from './fingerprint.js';
export { secretHashes } from './secrets.js';
export { indexLive } from './live-index.js';
export type { LiveEntry, LiveIndex } from './live-index.js';
export { ignoredFields, isObserved, isPruneDisabled } from './annotations.js';
