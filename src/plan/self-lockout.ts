// The self-lockout guard (#27 item 6): a plan never deletes or regenerates the API token wsync runs
// with, never deletes or demotes the user whose personal token it runs with, and never leaves the
// organization without a member of the owner role, unless --allow-self-lockout. What the API lets
// wsync know of its caller, and so what is guarded, is in docs/wire-contract.md "Who is calling".
import { changeRef, type Change, type Policy } from '../core/types.js';
import { KIND_NAMES, KINDS } from '../kinds/index.js';
import type { LiveIndex } from './live-index.js';

/** What is known of the credential wsync runs with; each `how` says how it was found, for messages. */
export interface SelfIdentity {
  /** Ids of the API token wsync runs with. */
  tokenIds?: { ids: readonly string[]; how: string };
  /** The user whose personal token wsync runs with. */
  user?: { id: string; how: string };
}

const ALLOW = 'Re-run with --allow-self-lockout if that is what you want.';

/** Holds a change as a self-lockout: never approvable by fingerprint, only --allow-self-lockout lets it through. */
function hold(change: Change, why: string): void {
  change.reason = change.action === 'refused' ? `${change.reason ?? ''}, ${why}` : `${change.reason ?? change.action}; held: ${why}`;
  change.action = 'refused';
  delete change.heldFrom;
}

/** The role a member change gives, when it changes the role (undefined: it keeps it). */
function roleAfter(change: Change, field: string): string | undefined {
  const diff = change.diffs.find((d) => d.path === field);
  return typeof diff?.after === 'string' ? diff.after.toLowerCase() : undefined;
}

function ownToken(changes: readonly Change[], self: SelfIdentity['tokenIds']): string[] {
  if (!self || self.ids.length === 0) return [];
  const refusals: string[] = [];
  for (const change of changes) {
    if (KINDS[change.kind].issuedSecret === undefined || change.id === undefined || !self.ids.includes(change.id)) continue;
    if (change.action !== 'delete' && change.action !== 'replace' && change.heldFrom?.action !== 'delete' && change.heldFrom?.action !== 'replace') continue;
    const verb = (change.heldFrom?.action ?? change.action) === 'delete' ? 'delete' : 'regenerate';
    hold(change, `self-lockout: it is the API token wsync runs with (${self.how})`);
    refusals.push(`Refusing to ${verb} ${changeRef(change.kind, change.key)} (id ${change.id}): it is the API token wsync runs with (${self.how}), so wsync would lock itself out. ${ALLOW}`);
  }
  return refusals;
}

/** Deletes of owners and changes of an owner's role to another one, by member kind. */
function losesOwner(change: Change, owners: ReadonlySet<string>): boolean {
  const member = KINDS[change.kind].memberRole;
  if (member === undefined || change.id === undefined || !owners.has(change.id)) return false;
  const action = change.heldFrom?.action ?? change.action;
  if (action === 'delete') return true;
  const role = roleAfter(change, member.field);
  return role !== undefined && role !== member.owner;
}

function lastOwner(changes: readonly Change[], live: LiveIndex): string[] {
  // Only a change of a member (a user) can lose the owner role: without one, the live users are not looked for.
  const members = changes.filter((c) => KINDS[c.kind].memberRole !== undefined && c.id !== undefined);
  if (members.length === 0) return [];
  const owners = new Set<string>();
  for (const kind of KIND_NAMES) {
    const member = KINDS[kind].memberRole;
    if (member === undefined) continue;
    for (const entry of live.entries) {
      if (entry.kind === kind && String(entry.spec[member.field] ?? '').toLowerCase() === member.owner) owners.add(entry.object.id);
    }
  }
  const losing = members.filter((c) => losesOwner(c, owners));
  const lost = new Set(losing.map((c) => c.id));
  if (owners.size === 0 || [...owners].some((id) => !lost.has(id))) return [];
  for (const change of losing) hold(change, 'self-lockout: no member of the owner role would be left');
  const which = losing.map((c) => changeRef(c.kind, c.key)).join(', ');
  return [`Refusing ${which}: no user of the organization would keep the owner role. ${ALLOW}`];
}

function ownUser(changes: readonly Change[], self: SelfIdentity['user']): string[] {
  if (!self) return [];
  const refusals: string[] = [];
  for (const change of changes) {
    const member = KINDS[change.kind].memberRole;
    if (member === undefined || change.id !== self.id || change.action === 'refused') continue;
    const role = roleAfter(change, member.field);
    const deleted = change.action === 'delete';
    if (!deleted && (role === undefined || member.manages.includes(role))) continue;
    const what = deleted ? 'delete' : `give the role "${role ?? ''}" to`;
    hold(change, `self-lockout: it is the user whose token wsync runs with (${self.how})`);
    refusals.push(
      `Refusing to ${what} ${changeRef(change.kind, change.key)}: it is the user whose personal token wsync runs with (${self.how}), ` +
        `and it would lose what managing the declared kinds takes (${member.manages.join(' or ')}). ${ALLOW}`,
    );
  }
  return refusals;
}

/**
 * Holds the changes that would lock wsync out (in place, as `refused`, without `heldFrom`: an
 * approval of the held fingerprint never lets them through) and returns one sentence per rule.
 */
export function guardSelfLockout(changes: readonly Change[], live: LiveIndex, self: SelfIdentity | undefined, policy: Pick<Policy, 'allowSelfLockout'>): string[] {
  if (policy.allowSelfLockout === true) return [];
  return [...ownToken(changes, self?.tokenIds), ...ownUser(changes, self?.user), ...lastOwner(changes, live)];
}
