import { describe, expect, it } from 'vitest';
import { ExportUsageError, parseKinds } from '../../../src/cli/commands/export/action.js';
import { KIND_NAMES } from '../../../src/kinds/index.js';

describe('parseKinds', () => {
  it('accepts kind names, lower case and plurals, in any order; returns them in dependency order', () => {
    expect(parseKinds(['monitors', ' Notifier', 'role'])).toEqual(['Role', 'Notifier', 'Monitor']);
    // Absent: every kind but UserRole (the same objects as User; exported only when named).
    expect(parseKinds(undefined)).toEqual(KIND_NAMES.filter((k) => k !== 'UserRole'));
    expect(parseKinds(['UserRole'])).toEqual(['UserRole']);
  });

  it('names the known kinds when one is unknown', () => {
    expect(() => parseKinds(['Monitor', 'Widgets'])).toThrow(ExportUsageError);
    expect(() => parseKinds(['Monitor', 'Widgets'])).toThrow(/--kind: unknown kind "Widgets" \(kinds: Dataset, Role, Notifier/);
    expect(() => parseKinds([' '])).toThrow(/at least one kind/);
  });
});
