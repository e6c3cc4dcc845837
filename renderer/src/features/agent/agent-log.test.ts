import { describe, expect, it } from 'vitest';
import type { AgentLogRow } from '../../lib/api/agent-api.ts';
import {
  atBottom,
  filterRows,
  mergeRows,
  personasOf,
  roleLabel,
  rowTime,
  showValue,
  toolSummary,
} from './agent-log.ts';

const row = (id: number, extra: Partial<AgentLogRow> = {}): AgentLogRow => ({
  id,
  time: '2026-01-01T10:00:00Z',
  role: 'assistant',
  persona: 'dashboard',
  text: `row ${id}`,
  ...extra,
});

describe('mergeRows', () => {
  it('replaces a streaming row in place and keeps id order', () => {
    const rows = [row(1), row(2, { text: 'Hel', pending: true })];
    const merged = mergeRows(rows, [row(3, { role: 'user' }), row(2, { text: 'Hello' })]);
    expect(merged.map((r) => [r.id, r.text, r.pending])).toEqual([
      [1, 'row 1', undefined],
      [2, 'Hello', undefined],
      [3, 'row 3', undefined],
    ]);
  });

  it('keeps the newest rows only', () => {
    const merged = mergeRows([row(1), row(2)], [row(4), row(3)], 3);
    expect(merged.map((r) => r.id)).toEqual([2, 3, 4]);
  });
});

describe('personas', () => {
  it('lists known personas first, then the rest by name', () => {
    const rows = [row(1, { persona: 'zeta' }), row(2, { persona: 'thinker' }), row(3), row(4, { persona: 'alpha' })];
    expect(personasOf(rows)).toEqual(['dashboard', 'thinker', 'alpha', 'zeta']);
  });

  it('filters by persona, or not at all', () => {
    const rows = [row(1), row(2, { persona: 'fleet' })];
    expect(filterRows(rows, 'fleet').map((r) => r.id)).toEqual([2]);
    expect(filterRows(rows, null)).toHaveLength(2);
  });
});

describe('row text', () => {
  it('labels roles and failures', () => {
    expect(roleLabel({ role: 'user' })).toBe('Prompt');
    expect(roleLabel({ role: 'reasoning' })).toBe('Reasoning');
    expect(roleLabel({ role: 'assistant', error: true })).toBe('Failed');
  });

  it('sums up a tool call by how it went', () => {
    expect(toolSummary({ name: 'look', input: {} }, true)).toBe('look · running…');
    expect(toolSummary({ name: 'look', input: {}, result: { ok: true } }, false)).toBe('look · done');
    expect(toolSummary({ name: 'look', input: {}, error: 'stop latched' }, false)).toBe('look · failed');
    expect(toolSummary({ name: 'express', input: {} }, false)).toBe('express');
  });

  it('shows values as text or indented JSON', () => {
    expect(showValue({ yaw: 30 })).toBe('{\n  "yaw": 30\n}');
    expect(showValue('plain')).toBe('plain');
    expect(showValue(undefined)).toBe('—');
  });

  it('prints the local time of a row', () => {
    expect(rowTime(new Date(2026, 0, 1, 9, 5, 7).toISOString())).toBe('09:05:07');
    expect(rowTime('yesterday')).toBe('');
  });
});

describe('atBottom', () => {
  it('is true at or near the end of the list', () => {
    expect(atBottom(500, 300, 800)).toBe(true);
    expect(atBottom(460, 300, 800)).toBe(true);
    expect(atBottom(300, 300, 800)).toBe(false);
  });
});
