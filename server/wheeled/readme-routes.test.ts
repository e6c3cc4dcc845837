/** README-wheeled.md lists every route of the wheeled server's table with its access (a change to the table is copied into the README by hand). */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWheeledHarness, type WheeledHarness } from './testing/wheeled-harness.ts';

let h: WheeledHarness;
beforeAll(async () => {
  h = await startWheeledHarness();
});
afterAll(() => h.close());

it('documents every route of the wheeled server in README-wheeled.md with its access level', () => {
  const readme = readFileSync(new URL('./README-wheeled.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('<!-- routes-b:start -->'), readme.indexOf('<!-- routes-b:end -->'));
  // Cells compared trimmed: a formatter may pad the columns.
  const documented = table
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => /^(GET|POST|PUT|DELETE|WS)$/.test(cells[1] ?? ''))
    .map((cells) => cells.slice(1, 4).join(' '));
  const routes = h.server.app.routes.map(
    (r) => `${r.method} \`${r.path}\` ${r.access}${r.control ? ', control' : ''}${r.queryToken ? ', ?token=' : ''}`,
  );
  expect(documented).toEqual(routes);
});
