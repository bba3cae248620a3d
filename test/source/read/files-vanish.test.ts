// A folder or link that disappears while the tree is listed (git-sync removing an old worktree)
// must make the listing an error, never a shorter tree: prune would delete what it declared.
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readDesired } from '../../../src/source/index.js';
import { listYamlFiles } from '../../../src/source/read/files.js';
import { useScratch } from '../../support/tree.js';
import { notifierYaml } from '../../support/yaml.js';

/** Runs `act` once, right after the listing has read the folder `dir`: the removal meets the listing there. */
const afterListing = vi.hoisted(() => ({ dir: '', act: (): void => undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((path: fs.PathLike, options?: unknown) => {
    const entries = (real.readdirSync as (p: fs.PathLike, o?: unknown) => unknown)(path, options);
    if (afterListing.dir !== '' && String(path) === afterListing.dir) {
      afterListing.dir = '';
      afterListing.act();
    }
    return entries;
  }) as typeof fs.readdirSync;
  return { ...real, default: { ...real, readdirSync }, readdirSync };
});

const scratch = useScratch('wsync-vanish-');

function tree(): string {
  return scratch.tree({
    'a/notifier.yaml': notifierYaml('a'),
    'b/notifier.yaml': notifierYaml('b'),
    'c/notifier.yaml': notifierYaml('c'),
  });
}

afterEach(() => {
  afterListing.dir = '';
});

describe('a tree that changes while it is listed', () => {
  it('a folder removed after the folder holding it was listed is an error naming it', async () => {
    const dir = tree();
    afterListing.dir = dir;
    afterListing.act = () => fs.rmSync(join(dir, 'b'), { recursive: true });
    const listing = listYamlFiles(dir);
    expect(listing.files.map((f) => f.path)).toEqual(['a/notifier.yaml', 'c/notifier.yaml']);
    expect(listing.problems).toEqual([{ path: 'b', message: expect.stringMatching(/^the folder disappeared .*\(ENOENT\): the files read are not the whole tree, nothing is written from them$/) }]);

    // Through readDesired: an error at b, so no plan (and no prune) is made from a and c alone.
    fs.mkdirSync(join(dir, 'b'));
    fs.writeFileSync(join(dir, 'b', 'notifier.yaml'), notifierYaml('b'));
    afterListing.dir = dir;
    const desired = await readDesired(dir);
    expect(desired.diagnostics).toEqual([expect.objectContaining({ severity: 'error', file: 'b', message: expect.stringContaining('the folder disappeared') })]);
  });

  it('the directory itself removed before it is listed is an error, not an empty tree', () => {
    const dir = tree();
    fs.rmSync(dir, { recursive: true });
    expect(listYamlFiles(dir)).toEqual({ files: [], problems: [{ path: '.', message: expect.stringContaining('the directory disappeared') }] });
  });

  it('a link removed after its folder was listed is an error; a link whose target never existed is skipped as before', () => {
    const dir = tree();
    fs.symlinkSync('a', join(dir, 'linked'));
    fs.symlinkSync('no-such-folder', join(dir, 'dangling'));
    afterListing.dir = dir;
    afterListing.act = () => fs.unlinkSync(join(dir, 'linked'));
    const listing = listYamlFiles(dir);
    expect(listing.problems).toEqual([{ path: 'linked', message: expect.stringContaining('the symbolic link disappeared') }]);
    expect(listing.files.map((f) => f.path)).toEqual(['a/notifier.yaml', 'b/notifier.yaml', 'c/notifier.yaml']);
  });
});
