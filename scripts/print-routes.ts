/** Prints the desktop server's route table as the README's markdown table (`npx tsx scripts/print-routes.ts`). */
import { startHarness } from '../server/testing/cockpit-harness.ts';

const h = await startHarness();
const rows = h.cockpit.app.routes.map(
  (r) => `| ${r.method} | \`${r.path}\` | ${r.access}${r.control ? ', control' : ''} | ${r.summary} |`,
);
process.stdout.write(['| Method | Path | Access | Purpose |', '|---|---|---|---|', ...rows].join('\n') + '\n');
await h.close();
