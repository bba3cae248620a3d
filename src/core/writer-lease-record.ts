// The object in which wsync marks the workspace it writes (src/reconcile/writer-lease.ts): an RBAC
// group of this name. It is wsync's own, never a user's object: the live reader leaves it out, so
// no kind plans, prunes or exports it.

export const WRITER_LEASE_GROUP = 'wsync-writer-lease';
export const GROUPS_PATH = '/v2/rbac/groups';

/** Whether a list item of `listPath` is wsync's writer lease. */
export function isWriterLeaseObject(listPath: string, item: { name?: unknown }): boolean {
  return listPath === GROUPS_PATH && item.name === WRITER_LEASE_GROUP;
}
