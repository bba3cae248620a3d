// The datasets a monitor's query reads, as far as its text says: what the service's monitor list
// filters on (docs: GET /v2/monitors lists only monitors on datasets the token may query).

/** `['name']` or `["name"]` anywhere in an APL query (union, join and lookup name datasets so too). */
const BRACKETED = /\[\s*(?:'([^'\]]+)'|"([^"\]]+)")\s*\]/g;
/** A query that starts with a bare dataset name: `checkout | where ...`. */
const LEADING_BARE = /^\s*([A-Za-z_][\w.-]*)\s*(?:\||$)/;
/** An MPL query starts with `dataset`:`metric` (axiom-go's MPL monitor tests) or dataset:metric. */
const MPL_DATASET = /^\s*(?:`([^`]+)`|([A-Za-z_][\w.-]*))\s*:/;

export function aplDatasets(query: string): string[] {
  const names = new Set<string>();
  const bare = LEADING_BARE.exec(query)?.[1];
  if (bare !== undefined) names.add(bare);
  for (const match of query.matchAll(BRACKETED)) names.add(match[1] ?? match[2] ?? '');
  names.delete('');
  return [...names].sort();
}

export function mplDatasets(query: string): string[] {
  const match = MPL_DATASET.exec(query);
  const name = match?.[1] ?? match?.[2];
  return name === undefined ? [] : [name];
}
