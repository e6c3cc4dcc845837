/**
 * No import cycles, between files or between feature folders (scripts/import-cycles.ts says what
 * counts). A new cycle fails with its path printed; the way out is to move the shared piece down
 * to the folder both sides may import (docs/architecture.md, "Folders and the direction of
 * imports"). The list of cycles not broken yet only shrinks: an entry that no longer matches fails.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, fileGraph, folderGraph, witnesses } from './import-cycles.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = ['server', 'main', 'platform-client', 'renderer/src'];

interface Known {
  /** The cycle's members, sorted, joined by spaces. */
  members: string;
  reason: string;
}

const NOT_YET_BROKEN: readonly Known[] = [];

const key = (cycle: readonly string[]): string => [...new Set(cycle)].sort().join(' ');

function report(kind: string, cycles: readonly string[][], explain: (c: string[]) => string[] = () => []): string[] {
  const known = new Set(NOT_YET_BROKEN.map((k) => k.members));
  return cycles
    .filter((c) => !known.has(key(c)))
    .map((c) => [`${kind} cycle: ${c.join(' -> ')}`, ...explain(c).map((w) => `    ${w}`)].join('\n'));
}

describe('import cycles', () => {
  const files = fileGraph(ROOT, ROOTS);
  const folders = folderGraph(files, ROOTS);

  it('reads the import graph of every source folder', () => {
    // A sanity floor, so a broken walker cannot pass by finding nothing.
    expect(files.size).toBeGreaterThan(500);
    expect(files.get('server/index.ts')?.size).toBeGreaterThan(3);
  });

  it('no two files import each other, directly or round a loop', () => {
    expect(report('file', cyclesOf(files)).join('\n')).toBe('');
  });

  it('no two feature folders import each other (production code; tests may reach across)', () => {
    expect(report('folder', cyclesOf(folders), (c) => witnesses(files, ROOTS, c)).join('\n')).toBe('');
  });

  it('every cycle listed as not broken yet still exists', () => {
    const found = new Set([...cyclesOf(files), ...cyclesOf(folders)].map(key));
    expect(NOT_YET_BROKEN.filter((k) => !found.has(k.members))).toEqual([]);
  });
});

describe('the cycle check on a planted fixture', () => {
  const fixtureRoots = ['src'];
  const files = fileGraph(fileURLToPath(new URL('./fixtures/import-cycles/', import.meta.url)), fixtureRoots);

  it('finds the file cycle, type-only imports included', () => {
    expect(cyclesOf(files)).toEqual([['src/c/x.ts', 'src/c/y.ts', 'src/c/x.ts']]);
  });

  it('finds the folder cycle that no file cycle shows, and the files that make it', () => {
    const folders = folderGraph(files, fixtureRoots);
    const cycles = cyclesOf(folders);
    expect(cycles).toEqual([['src/a', 'src/b', 'src/a']]);
    expect(witnesses(files, fixtureRoots, cycles[0] ?? [])).toEqual([
      'src/a/one.ts -> src/b/two.ts',
      'src/b/two.ts -> src/a/three.ts',
    ]);
  });
});
