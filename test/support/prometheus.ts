// A strict reader of the Prometheus text exposition format (version 0.0.4), to prove /metrics parses,
// and a scrape of a running daemon.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

// Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client writes `Nan`).
function parseValue(text: string, line: number): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value "${text}"`);
  return Number(text);
}

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`line ${line}: label without "="`);
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name "${name}"`);
    if (text[eq + 1] !== '"') throw new Error(`line ${line}: label value not quoted`);
    let j = eq + 2;
    let value = '';
    for (;;) {
      const c = text[j];
      if (c === undefined) throw new Error(`line ${line}: unterminated label value`);
      if (c === '\\') {
        const n = text[j + 1];
        if (n === 'n') value += '\n';
        else if (n === '\\' || n === '"') value += n;
        else throw new Error(`line ${line}: bad escape \\${n ?? ''}`);
        j += 2;
        continue;
      }
      if (c === '"') break;
      value += c;
      j++;
    }
    if (name in labels) throw new Error(`line ${line}: duplicate label ${name}`);
    labels[name] = value;
    j++;
    if (text[j] === ',') j++;
    else if (j < text.length) throw new Error(`line ${line}: expected "," after label ${name}`);
    i = j;
  }
  return labels;
}

function familyOf(sample: string, families: Map<string, Family>): Family | undefined {
  for (const suffix of ['', '_bucket', '_sum', '_count', '_total', '_created']) {
    if (suffix && !sample.endsWith(suffix)) continue;
    const f = families.get(sample.slice(0, sample.length - suffix.length));
    if (f) return f;
  }
  return undefined;
}

/** Parses the whole text or throws naming the first bad line. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the text must end with a newline');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw === '') return;
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
      if (!m) return; // a plain comment
      const [, what, name = '', rest = ''] = m;
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name "${name}"`);
      const f = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (what === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: bad type "${rest}"`);
        if (f.samples.length > 0) throw new Error(`line ${line}: TYPE after samples of ${name}`);
        f.type = rest;
      } else f.help = rest;
      families.set(name, f);
      return;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(raw);
    if (!m) throw new Error(`line ${line}: not a sample: ${raw}`);
    const [, name = '', , labelText, valueText = ''] = m;
    const sample: Sample = { name, labels: labelText ? parseLabels(labelText, line) : {}, value: parseValue(valueText, line) };
    const family = familyOf(name, families);
    if (!family) throw new Error(`line ${line}: sample ${name} has no TYPE/HELP`);
    family.samples.push(sample);
  });
  for (const f of families.values()) {
    if (f.type !== 'histogram' || f.samples.length === 0) continue;
    const buckets = f.samples.filter((s) => s.name === `${f.name}_bucket`);
    if (!buckets.some((b) => b.labels.le === '+Inf')) throw new Error(`${f.name}: histogram without le="+Inf"`);
    const count = f.samples.find((s) => s.name === `${f.name}_count`);
    const inf = buckets.find((b) => b.labels.le === '+Inf');
    if (!count || count.value !== inf?.value) throw new Error(`${f.name}: _count differs from the +Inf bucket`);
  }
  return families;
}

/** The value of one sample, or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name !== name) continue;
      if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return undefined;
}

/** GET `<url>/metrics`, parsed (and so checked) as Prometheus text. */
export async function scrapeMetrics(url: string): Promise<Map<string, Family>> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`GET ${url}/metrics answered ${response.status}`);
  return parsePrometheusText(await response.text());
}
