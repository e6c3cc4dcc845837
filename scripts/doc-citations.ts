/**
 * Citations a reader with a clone cannot follow: notes kept outside the repository, issue
 * numbers and people (module names such as `cockpit-api.ts` are ours and pass). Comments cite the docs in docs/ (or say the sentence themselves); see
 * docs/testing.md, "Rules". scripts/doc-citations.test.ts runs this over every source and doc file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface Citation {
  file: string;
  line: number;
  kind: 'outside note' | 'issue number' | 'person';
  text: string;
}

const RULES: readonly { kind: Citation['kind']; pattern: RegExp }[] = [
  {
    kind: 'outside note',
    pattern: /\b(?:cockpit-api|daemon-api|platform-api|daemon-changes|user-asks|style-anchors)\.md\b|\breference-notes\b|\bARCHITECTURE(?:\.md)?\b|\.\.\/shared\b/,
  },
  { kind: 'issue number', pattern: /\b[Ii]ssues? #?\d+|\(#\d+\)/ },
  { kind: 'person', pattern: /\bthe lead\b|\blead's\b/i },
];

/** Every citation in one text, by line. */
export function citationsIn(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { kind, pattern } of RULES) {
      const match = pattern.exec(line);
      if (match) found.push({ file, line: index + 1, kind, text: match[0] });
    }
  });
  return found;
}

const CHECKED = /\.(ts|mts|mjs|js|cjs|svelte|md|yml|html)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', '.git', 'out']);

/** Files under `root` that are checked, relative with forward slashes; `skip` lists paths left out. */
export function checkedFiles(root: string, folders: readonly string[], skip: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    const rel = relative(root, path).split(sep).join('/');
    if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (!SKIP_DIRS.has(name)) walk(join(path, name));
    } else if (CHECKED.test(path)) out.push(rel);
  };
  for (const folder of folders) walk(join(root, folder));
  return out.sort();
}

export function findCitations(root: string, folders: readonly string[], skip: readonly string[]): Citation[] {
  return checkedFiles(root, folders, skip).flatMap((file) => citationsIn(file, readFileSync(join(root, file), 'utf8')));
}
