// What a read of a tree takes besides its directory, as the daemon's write-back, its publish and
// `wsync pull` hand it on to readDesired: one shape, passed on whole.
import type { TreeLimits } from './limits.js';

export interface TreeSettings {
  /** Where `${env:NAME}` reads from. */
  env: Record<string, string | undefined>;
  /** Where `${file:PATH}` reads from. */
  secretsDir?: string;
  limits?: Partial<TreeLimits>;
  /** The environment of wsync.yaml to render (--env): its variables and overlays. */
  environment?: string;
}

/** The tree settings of `from`, without its other fields and without the ones it leaves unset. */
export function treeSettingsOf(from: TreeSettings): TreeSettings {
  return {
    env: from.env,
    ...(from.secretsDir === undefined ? {} : { secretsDir: from.secretsDir }),
    ...(from.limits === undefined ? {} : { limits: from.limits }),
    ...(from.environment === undefined ? {} : { environment: from.environment }),
  };
}
