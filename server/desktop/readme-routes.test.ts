/** The README's route table of the desktop server lists every route of the table with its access. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/cockpit-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

it('documents every route of the desktop server in the README with its access level', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('<!-- routes-a:start -->'), readme.indexOf('<!-- routes-a:end -->'));
  const missing = h.cockpit.app.routes
    .map((r) => `| ${r.method} | \`${r.path}\` | ${r.access}${r.control ? ', control' : ''} |`)
    .filter((row) => !table.includes(row));
  expect(missing).toEqual([]);
});
