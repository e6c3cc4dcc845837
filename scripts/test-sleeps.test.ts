/**
 * No test sleeps (scripts/test-sleeps.ts says why and what to do instead). The allowlist is
 * short and every entry gives its reason; an entry that no longer matches anything fails too, so
 * the list only shrinks.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findSleeps, sleepsIn, type SleepHit } from './test-sleeps.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Allowed {
  file: string;
  /** A piece of the line, so an entry names one place, not a whole file. */
  line: string;
  reason: string;
}

const ALLOWED: readonly Allowed[] = [
  {
    file: 'server/push/turn-watch.test.ts',
    line: 'setTimeout(r, 0)',
    reason: "one macrotask turn for the watcher's .then callbacks of an already settled turn; no time is assumed",
  },
  {
    file: 'server/wheeled/fuzz.test.ts',
    line: 'setTimeout(r, 5)',
    reason: 'paces the fuzz sender so it does not trip the socket rate limit; no assertion depends on it',
  },
];

/**
 * Sleeps not fixed yet, per file, as a ratchet: a file may lose hits, never gain them, and a
 * new file is not in here. Each is a wait on wall-clock time in a test that a busy machine can
 * break; the count only goes down.
 */
const NOT_YET_FIXED: Readonly<Record<string, number>> = {};

/** This file's own samples are sleeps on purpose. */
const SELF = 'scripts/test-sleeps.test.ts';
const allowed = (hit: SleepHit) =>
  hit.file === SELF || ALLOWED.some((a) => a.file === hit.file && hit.text.includes(a.line));

describe('test sleeps', () => {
  it('finds waitForTimeout, promise-wrapped timers and sleep() calls, not definitions or comments', () => {
    const text = [
      'await page.waitForTimeout(500);',
      'await new Promise((r) => setTimeout(r, 100));',
      'await new Promise((resolve) => setTimeout(resolve, ms));',
      'await sleep(200);',
      'const sleep = (ms: number) => Promise.resolve(ms);',
      'function sleep(ms: number) {}',
      '// await sleep(100) in a comment',
      'const timer = setTimeout(() => fail(), 1000);',
      'await timers.sleep(ms);',
    ].join('\n');
    expect(findSleeps('x.test.ts', text).map((h) => h.line)).toEqual([1, 2, 3, 4]);
  });

  it('no test file sleeps outside the allowlist', () => {
    const hits = sleepsIn(ROOT).filter((hit) => !allowed(hit));
    const perFile = new Map<string, SleepHit[]>();
    for (const hit of hits) perFile.set(hit.file, [...(perFile.get(hit.file) ?? []), hit]);
    const over = [...perFile].filter(([file, list]) => list.length > (NOT_YET_FIXED[file] ?? 0));
    expect(over.flatMap(([, list]) => list.map((h) => `${h.file}:${h.line}  ${h.text}`))).toEqual([]);
  });

  it('every allowlist entry still matches a sleep and gives a reason', () => {
    const hits = sleepsIn(ROOT);
    for (const entry of ALLOWED) {
      expect(entry.reason.length, entry.file).toBeGreaterThan(20);
      expect(
        hits.some((h) => h.file === entry.file && h.text.includes(entry.line)),
        `${entry.file}: ${entry.line}`,
      ).toBe(true);
    }
    for (const [file, count] of Object.entries(NOT_YET_FIXED)) {
      expect(
        hits.filter((h) => h.file === file && !allowed(h)).length,
        `${file} has fewer sleeps now: lower its count`,
      ).toBe(count);
    }
  });
});
