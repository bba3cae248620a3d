// The pure planner: values in, a Plan out.
export { OBSERVE_REASON, planChanges } from './planner.js';
export { buildNameIndex, resolveIdFromLive } from './references.js';
export { diffFingerprints, diffSavedPlan, fingerprintInputs } from './fingerprint.js';
export { secretHashes } from './secrets.js';
