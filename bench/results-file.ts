/**
 * bench/RESULTS.md: a whole run rewrites the report above the hand-written notes; a run of one
 * part (BENCH_ONLY) replaces only that part's section. The notes below NOTES_MARK are kept.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/** Written by hand below this line of RESULTS.md (profiles, before/after); a run keeps it. */
export const NOTES_MARK = '<!-- notes: written by hand, kept by npm run bench -->';

const FILE = join(ROOT, 'bench', 'RESULTS.md');

const read = (): string => (existsSync(FILE) ? readFileSync(FILE, 'utf8') : '');

/** The whole report, above the notes. */
export function writeResults(report: string): void {
  const old = read();
  const at = old.indexOf(NOTES_MARK);
  writeFileSync(FILE, at < 0 ? report : `${report.trimEnd()}\n\n${old.slice(at)}`);
}

/**
 * Replaces the section that starts at `heading` (up to the next `## ` heading or the notes); a
 * section not there yet goes in before the notes.
 */
export function writeSection(heading: string, section: string): void {
  const old = read();
  const notes = old.indexOf(NOTES_MARK);
  const start = old.indexOf(`${heading}\n`);
  let from = start;
  let to = start;
  if (start >= 0) {
    const next = old.indexOf('\n## ', start + heading.length);
    const ends = [next, notes].filter((i) => i > start);
    to = ends.length > 0 ? Math.min(...ends) : old.length;
  } else from = to = notes >= 0 ? notes : old.length;
  const rest = old.slice(to).trimStart();
  writeFileSync(FILE, `${old.slice(0, from).trimEnd()}\n\n${section.trimEnd()}\n${rest ? `\n${rest}` : ''}`);
}
