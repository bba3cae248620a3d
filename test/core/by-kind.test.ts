import { describe, expect, it } from 'vitest';
import { ByKind } from '../../src/core/by-kind.js';

describe('ByKind', () => {
  it('keeps values apart by kind, and counts entries over all kinds', () => {
    const map = new ByKind<string>();
    map.set('Monitor', 'a', 'mon_1');
    map.set('Notifier', 'a', 'not_1');
    map.set('Monitor', 'a', 'mon_2');
    expect(map.get('Monitor', 'a')).toBe('mon_2');
    expect(map.get('Notifier', 'a')).toBe('not_1');
    expect(map.has('User', 'a')).toBe(false);
    expect(map.size).toBe(2);
    map.delete('Monitor', 'a');
    map.delete('Monitor', 'missing');
    expect(map.size).toBe(1);
    expect([...map.keys('Notifier')]).toEqual(['a']);
    expect([...map.keys('Monitor')]).toEqual([]);
  });

  it('equals another with the same entries and values, whatever the order they were set in', () => {
    const a = new ByKind<string>();
    const b = new ByKind<string>();
    a.set('Monitor', 'x', '1');
    a.set('User', 'y', '2');
    b.set('User', 'y', '2');
    b.set('Monitor', 'x', '1');
    expect(a.equals(b)).toBe(true);
    b.set('Monitor', 'x', '3');
    expect(a.equals(b)).toBe(false);
    b.set('Monitor', 'x', '1');
    b.set('Monitor', 'z', '1');
    expect(a.equals(b)).toBe(false);
  });

  it('copies into one that changes apart, and lists every value', () => {
    const a = new ByKind<string>();
    a.set('Monitor', 'x', '1');
    a.set('User', 'y', '2');
    const b = a.copy();
    b.set('Monitor', 'x', '3');
    b.delete('User', 'y');
    expect([...a.values()]).toEqual(['1', '2']);
    expect(a.size).toBe(2);
    expect([...b.values()]).toEqual(['3']);
    expect(b.size).toBe(1);
  });
});
