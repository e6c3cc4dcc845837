/**
 * The fleet page reads other robots' health in the browser, and the renderer may not import
 * server code, so it carries a copy of the rule for characters that show nothing
 * (renderer/src/features/fleet/fleet-format.ts). This keeps the copy the same as the rule here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const literal = (source: string, name: string): string | undefined =>
  new RegExp(`const ${name} =\\s*(/.+/[a-z]*);`).exec(source)?.[1];

it("keeps the fleet page's copy of the invisible-character rule the same as the server's", () => {
  const server = readFileSync(new URL('./network-text.ts', import.meta.url), 'utf8');
  const page = readFileSync(new URL('../../renderer/src/features/fleet/fleet-format.ts', import.meta.url), 'utf8');
  for (const name of ['INVISIBLE', 'DRAWS']) {
    expect(literal(server, name), name).toBeDefined();
    expect(literal(page, name), name).toBe(literal(server, name));
  }
});
