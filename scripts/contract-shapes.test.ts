/**
 * Every shape that crosses the wire is declared once, in server/contract/ (docs/contract.md,
 * "Where wire shapes live"): no module of the dashboard or the platform client may declare one of
 * its own with a contract shape's name or its property names (scripts/contract-shapes.ts says what
 * counts). A repeat fails with both places printed; the way out is to import the contract's type.
 * A view model of the dashboard's own may stay under a name of its own (and other keys).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repeats, scriptOf, shapesIn, shapesUnder } from './contract-shapes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const CONTRACT = [`${ROOT}/server/contract`];
const CLIENTS = [`${ROOT}/renderer/src`, `${ROOT}/platform-client`];

/** Repeats allowed for now, each with the reason it may stay; an entry that no longer matches fails. */
const ALLOWED: readonly { file: string; name: string; reason: string }[] = [];

const line = (r: ReturnType<typeof repeats>[number]): string =>
  `${r.shape.file} declares ${r.shape.name}: use ${r.contract.name} of ${r.contract.file}`;

describe('wire shapes come from server/contract', () => {
  const contract = shapesUnder(CONTRACT, ROOT);
  const clients = shapesUnder(CLIENTS, ROOT);
  const allowed = (r: ReturnType<typeof repeats>[number]): boolean =>
    ALLOWED.some((a) => a.file === r.shape.file && a.name === r.shape.name);

  it('reads the contract and the client folders', () => {
    // A sanity floor, so a broken reader cannot pass by finding nothing.
    expect(contract.map((s) => s.name)).toEqual(expect.arrayContaining(['RobotState', 'ServerFrame', 'ErrorCode']));
    expect(clients.length).toBeGreaterThan(100);
    expect(clients.some((s) => s.file.endsWith('.svelte'))).toBe(true);
    expect(clients.some((s) => s.file.startsWith('platform-client/'))).toBe(true);
  });

  it('no dashboard or platform-client module declares a contract shape', () => {
    expect(
      repeats(clients, contract)
        .filter((r) => !allowed(r))
        .map(line),
    ).toEqual([]);
  });

  it('every allowed repeat still exists', () => {
    const found = repeats(clients, contract);
    expect(ALLOWED.filter((a) => !found.some((r) => r.shape.file === a.file && r.shape.name === a.name))).toEqual([]);
  });
});

describe('the repeat detector', () => {
  const contract = shapesIn(
    'server/contract/example.ts',
    `export interface Notice { title: string; body: string; tag: string; url: string }
     export type Level = 'debug' | 'info';
     export type Outcome = { ok: true; model: string; latencyMs: number } | { ok: false; error: string };`,
  );

  it('catches a declaration with a contract name, whatever its keys', () => {
    const found = repeats(shapesIn('renderer/src/a.ts', `interface Notice { title: string }`), contract);
    expect(found.map(line)).toEqual(['renderer/src/a.ts declares Notice: use Notice of server/contract/example.ts']);
    expect(
      repeats(shapesIn('renderer/src/b.ts', `export type Level = 'debug' | 'info' | 'warn';`), contract),
    ).toHaveLength(1);
  });

  it('catches the same keys under another name, in an interface, a type or a union member', () => {
    const text = `export type Toast = { url: string; tag: string; body: string; title: string };
      export interface Probe { ok: boolean; model: string; latencyMs: number }`;
    expect(
      repeats(shapesIn('platform-client/c.ts', text), contract).map((r) => `${r.shape.name}~${r.contract.name}`),
    ).toEqual(['Toast~Notice', 'Probe~Outcome']);
    const union = `type Result = { ok: true; model: string; latencyMs: number } | { ok: false; why: string };`;
    expect(repeats(shapesIn('renderer/src/d.ts', union), contract).map((r) => r.contract.name)).toEqual(['Outcome']);
  });

  it('reads the script blocks of a Svelte file', () => {
    const svelte = `<script lang="ts">\n  interface Notice { title: string }\n</script>\n<p>{1}</p>`;
    const shapes = shapesIn('renderer/src/E.svelte', scriptOf('renderer/src/E.svelte', svelte));
    expect(shapes).toEqual([{ file: 'renderer/src/E.svelte', name: 'Notice', keys: ['title'] }]);
    expect(repeats(shapes, contract)).toHaveLength(1);
  });

  it('ignores a different shape, a subset of keys and small look-alikes', () => {
    const text = `interface Toast extends Notice { id: number }
      interface Draft { title: string; body: string; tag: string }
      interface Pair { ok: boolean; error: string }
      type Mode = 'a' | 'b';`;
    expect(repeats(shapesIn('renderer/src/f.ts', text), contract)).toEqual([]);
    expect(
      repeats(shapesIn('renderer/src/g.ts', `interface Pair { ok: boolean; error: string }`), [
        ...contract,
        ...shapesIn('server/contract/x.ts', `interface Other { error: string; ok: boolean }`),
      ]),
    ).toEqual([]);
  });
});
