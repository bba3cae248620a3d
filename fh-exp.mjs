import { yamlHints } from './dist/source/yaml-hints.js';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
function walk(d) { for (const f of readdirSync(d)) { const p = join(d, f); if (statSync(p).isDirectory()) walk(p); else if (/\.ya?ml$/.test(f)) { const h = yamlHints(readFileSync(p, 'utf8')); if (h.length) console.log(p, h); } } }
walk('config-examples'); walk('test'); walk('.github'); 
