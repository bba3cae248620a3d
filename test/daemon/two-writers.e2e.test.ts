// Two daemons with different state directories on one workspace (#17.9): the second is refused
// instead of adopting everything the first owns, until the first stops; then it takes over.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonSuite } from '../support/daemon.js';
import { notifierYaml } from '../support/yaml.js';

const env = useDaemonSuite();

describe('a second daemon with another state directory', () => {
  it('is refused while the first runs, writes nothing, and takes over once the first has stopped', async () => {
    const first = join(env.tmp, 'first');
    const second = join(env.tmp, 'second');
    for (const dir of [first, second]) {
      await mkdir(dir);
      await writeFile(join(dir, 'notifiers.yaml'), notifierYaml('team-email'));
    }
    const a = env.start([first, '--resync', 'off', '--debounce', '50']);
    await a.waitReconcile(0, { trigger: 'start', result: 'applied' });
    const writes = (await env.emulator.writes()).length;

    const b = env.start([second, '--resync', 'off', '--debounce', '50']);
    const refused = await b.waitReconcile(0, { trigger: 'start' });
    expect(refused.result).toBe('refused');
    expect(String(refused.error)).toMatch(/the workspace is being written by another wsync \(writer \w+ on .*, state directory .*first\/\.wsync; .*so nothing was written/);
    expect((await env.emulator.writes()).length).toBe(writes);
    // Nothing the first owns went into the second's inventory.
    await expect(readFile(join(second, '.wsync', 'inventory.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    expect(await a.signal('SIGTERM')).toBe(0);
    const mark = b.mark;
    await writeFile(join(second, 'notifiers.yaml'), `${notifierYaml('team-email')}\n`);
    const applied = await b.waitReconcile(mark, { result: 'applied' });
    expect(applied).toMatchObject({ adopted: 1, created: 0 });
    expect(b.lines.some((l) => String(l.msg).startsWith("took over the workspace's writer lease from writer"))).toBe(true);
    expect(await b.signal('SIGTERM')).toBe(0);
  });
});
