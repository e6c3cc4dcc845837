/**
 * Finds sleeps in test code: `waitForTimeout(` (Playwright) and bare setTimeout-based waits
 * (`new Promise((r) => setTimeout(r, ms))`, a `sleep(ms)` helper). A test that sleeps either
 * waits too little on a busy machine (red at random) or too long everywhere; it waits on a
 * readiness signal, `eventually()` (server/testing/eventually.ts), a clock it controls
 * (server/testing/manual-clock.ts, Playwright's page.clock) or a barrier instead.
 * scripts/test-sleeps.test.ts runs this over every test file, with a short allowlist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SleepHit {
  file: string;
  line: number;
  text: string;
}

const SLEEPS: readonly RegExp[] = [
  /\bwaitForTimeout\s*\(/,
  // A promise that resolves from a timer: the shape of every hand-rolled sleep.
  /new Promise\b.*\bsetTimeout\s*\(\s*(r|res|resolve|done|ok)\s*,/,
  /\bsetTimeout\s*\(\s*(r|res|resolve|done|ok)\s*,/,
  // A call of a sleep helper (`sleep(200)`, `await sleep(ms)`), not its definition.
  /(?<!function |const |\.)\bsleep\s*\(\s*[\w.*+ ]+\)/,
];

/** Test code: vitest files, e2e specs and the e2e fixtures and page helpers. */
export function isTestFile(path: string): boolean {
  return /\.test\.ts$/.test(path) || /^e2e\/.*\.ts$/.test(path);
}

export function findSleeps(file: string, text: string): SleepHit[] {
  const hits: SleepHit[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.replace(/\/\/.*$/, '');
    if (SLEEPS.some((pattern) => pattern.test(code))) hits.push({ file, line: index + 1, text: line.trim() });
  });
  return hits;
}

const SKIP = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report']);

export function listTestFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listTestFiles(root, path));
    else if (isTestFile(relative(root, path))) files.push(relative(root, path));
  }
  return files.sort();
}

export function sleepsIn(root: string): SleepHit[] {
  return listTestFiles(root).flatMap((file) => findSleeps(file, readFileSync(join(root, file), 'utf8')));
}
