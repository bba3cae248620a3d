// Fixed facts of the emulated workspace (docs/wire-contract.md "Users and roles").

/** The user every admin-token and API-token request acts as. Not in GET /v2/users unless seeded. */
export const ADMIN_USER = {
  id: 'usr_emulatoradmin00000',
  name: 'Emulator Admin',
  email: 'admin@emulator.local',
} as const;

export const BUILT_IN_ROLES = ['admin', 'member', 'read-only'] as const;

export const DEFAULT_ADMIN_TOKEN = 'wsync-emulator-admin';

/** X-RateLimit-Limit when no --rate-limit is set. */
export const UNLIMITED_RATE = 1_000_000;
