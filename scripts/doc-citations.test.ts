/**
 * No source or doc file cites notes outside the repository, an issue number or a person
 * (scripts/doc-citations.ts). A comment cites a file in docs/ and its section, or says the
 * sentence itself.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkedFiles, findCitations } from './doc-citations.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['server', 'main', 'platform-client', 'renderer', 'e2e', 'bench', 'scripts', 'docs', 'assets', 'README.md', 'eslint.config.js', 'electron-builder.yml', 'playwright.config.ts', 'vite.config.ts', 'vitest.config.ts'];
/** The checker itself names what it refuses, and its fixture plants each kind. */
const SKIP = ['scripts/doc-citations.ts', 'scripts/doc-citations.test.ts', 'scripts/fixtures/doc-citations'];

describe('doc citations', () => {
  it('reads every source and doc file', () => {
    const files = checkedFiles(ROOT, FOLDERS, SKIP);
    expect(files.length).toBeGreaterThan(500);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
  });

  it('no file cites notes outside the repository, an issue number or a person', () => {
    const found = findCitations(ROOT, FOLDERS, SKIP).map((c) => `${c.file}:${c.line}: ${c.kind} "${c.text}"`);
    expect(found).toEqual([]);
  });
});

describe('the citation check on a planted fixture', () => {
  const fixtures = fileURLToPath(new URL('./fixtures/doc-citations/', import.meta.url));

  it('refuses each kind of citation, naming the line', () => {
    const found = findCitations(fixtures, ['cites.ts'], []).map((c) => `${c.line} ${c.kind} ${c.text}`);
    expect(found).toEqual([
      '2 outside note cockpit-api.md',
      '3 outside note daemon-api.md',
      '4 outside note ARCHITECTURE',
      '5 outside note ../shared',
      '6 issue number issue 10',
      '7 person the lead',
    ]);
  });

  it('lets citations of the repo and look-alike words through', () => {
    expect(findCitations(fixtures, ['clean.ts'], [])).toEqual([]);
  });
});
