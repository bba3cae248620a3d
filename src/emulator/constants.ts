// Fixed facts of the emulated workspace (docs/wire-contract.md "Users and roles").

/** The user every admin-token and API-token request acts as. Not in GET /v2/users unless seeded. */
export const ADMIN_USER = {
  id: 'usr_emulatoradmin00000',
  name: 'Emulator Admin',
  email: 'admin@emulator.local',
} as const;

/**
 * The base roles every workspace has, by the key a write names them with and the label a read
 * answers (`{"id": "owner", "name": "Owner"}`): the service's clients and docs know these five.
 */
export const BUILT_IN_ROLES: Readonly<Record<string, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  user: 'User',
  'read-only': 'Read-only',
  none: 'None',
};

/** The built-in role key a role written in any letter case names, or undefined. */
export function builtInRole(role: string): string | undefined {
  const key = role.toLowerCase();
  return Object.prototype.hasOwnProperty.call(BUILT_IN_ROLES, key) ? key : undefined;
}

/**
 * Where datasets are stored (docs/wire-contract.md "Dataset region"): the edge deployments the
 * workspace offers, the first its default. A dataset created without one is stored in the default
 * and answers it, as the service reads the org's default back.
 */
export const EDGE_DEPLOYMENTS = ['cloud.us-east-1.aws', 'cloud.eu-central-1.aws'] as const;
export const DEFAULT_EDGE_DEPLOYMENT: string = EDGE_DEPLOYMENTS[0];

export const DEFAULT_ADMIN_TOKEN = 'wsync-emulator-admin';

/** X-RateLimit-Limit when no --rate-limit is set. */
export const UNLIMITED_RATE = 1_000_000;
