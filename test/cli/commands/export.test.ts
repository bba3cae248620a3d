import { describe, expect, it } from 'vitest';
import { ExportUsageError, parseKinds } from '../../../src/cli/commands/export/action.js';
import { KIND_NAMES } from '../../../src/kinds/index.js';

describe('parseKinds', () => {
  it('accepts kind names, lower case and plurals, in any order; returns them in dependency order', () => {
    expect(parseKinds(['monitors', ' Notifier', 'role'])).toEqual(['Role', 'Notifier', 'Monitor']);
    expect(parseKinds(undefined)).toEqual([...KIND_NAMES]);
  });

  it('names the known kinds when one is unknown', () => {
    expect(() => parseKinds(['Monitor', 'Widgets'])).toThrow(ExportUsageError);
    expect(() => parseKinds(['Monitor', 'Widgets'])).toThrow(/--kind: unknown kind "Widgets" \(kinds: Dataset, Role, Notifier/);
    expect(() => parseKinds([' '])).toThrow(/at least one kind/);
  });
});
