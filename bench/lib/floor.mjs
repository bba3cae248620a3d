// The floor of issue #12: a node process that reads and parses the files of a tree with js-yaml 4
// (`loadAll`), nothing else. `node bench/lib/floor.mjs DIR` prints the number of documents.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsYaml from 'js-yaml';

function* yamlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) yield* yamlFiles(path);
    else if (entry.isFile() && /\.ya?ml$/i.test(entry.name)) yield path;
  }
}

let documents = 0;
for (const file of yamlFiles(process.argv[2])) documents += jsYaml.loadAll(readFileSync(file, 'utf8')).length;
console.log(documents);
