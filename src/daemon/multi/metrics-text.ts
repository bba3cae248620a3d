// Several workspaces' registries on one /metrics: each family once (one HELP and TYPE line), the
// samples of every workspace under it, told apart by their `env` label. Prometheus refuses a text
// exposition that names a family twice, so the registries' texts cannot simply be concatenated.

interface Family {
  header: string[];
  samples: string[];
}

/** The family a sample line belongs to: its metric name, less a histogram's or summary's suffix. */
function familyOf(sampleName: string, families: ReadonlyMap<string, Family>): string {
  if (families.has(sampleName)) return sampleName;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sampleName.endsWith(suffix) && families.has(sampleName.slice(0, -suffix.length))) return sampleName.slice(0, -suffix.length);
  }
  return sampleName;
}

/** One exposition from several, in the order the families first appear. */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let found = families.get(name);
    if (found === undefined) {
      found = { header: [], samples: [] };
      families.set(name, found);
    }
    return found;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const header = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (header !== null) {
        const name = header[2] ?? '';
        const target = family(name);
        if (target.header.length < 2 && !target.header.some((h) => h.startsWith(`# ${header[1]} `))) target.header.push(line);
        continue;
      }
      if (line.startsWith('#')) continue;
      const sampleName = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? line;
      family(familyOf(sampleName, families)).samples.push(line);
    }
  }
  return [...families.values()].map((f) => [...f.header, ...f.samples].join('\n')).join('\n') + '\n';
}
