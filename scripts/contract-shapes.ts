/**
 * Which shapes a folder declares, and which of them the wire contract (server/contract/) already
 * has: scripts/contract-shapes.test.ts refuses a renderer or platform-client declaration that
 * repeats a contract shape, so every shape that crosses the wire has one source
 * (docs/contract.md). A shape is a top-level interface or type alias; its keys are the property
 * names of an interface or an object type, and a union alias gives one more shape per object
 * member (so `type X = {a, b, c} | {...}` is compared member by member). Two shapes are the same
 * when they have the same name, or the same set of property names (three or more, so small
 * look-alikes such as `{ ok, error }` do not count). Svelte files give their `<script>` blocks;
 * tests and their helpers (`*.test.ts`, `test/`, `testing/`) are not read.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { sourceFiles } from './import-cycles.ts';

export interface Shape {
  file: string;
  name: string;
  /** Property names, sorted; empty for an alias that is not an object type (a union of strings, say). */
  keys: string[];
}

/** The fewest properties for two unnamed look-alikes to count as one shape. */
export const MIN_KEYS = 3;

/** The TypeScript of a source file: the whole text, or a Svelte file's `<script>` blocks. */
export function scriptOf(path: string, text: string): string {
  if (!path.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

function keysOf(members: ts.NodeArray<ts.TypeElement>): string[] {
  return members
    .filter((m): m is ts.PropertySignature | ts.MethodSignature => ts.isPropertySignature(m) || ts.isMethodSignature(m))
    .map((m) => (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText()))
    .sort();
}

/** The shapes of one type alias: itself (by name, with keys when it is an object type), and its union's object members. */
function aliasShapes(file: string, node: ts.TypeAliasDeclaration): Shape[] {
  const name = node.name.text;
  if (ts.isTypeLiteralNode(node.type)) return [{ file, name, keys: keysOf(node.type.members) }];
  const members = ts.isUnionTypeNode(node.type) ? node.type.types.filter(ts.isTypeLiteralNode) : [];
  return [{ file, name, keys: [] }, ...members.map((m) => ({ file, name, keys: keysOf(m.members) }))];
}

/** The top-level interfaces and type aliases in one source text. */
export function shapesIn(file: string, text: string): Shape[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const shapes: Shape[] = [];
  for (const node of source.statements) {
    if (ts.isInterfaceDeclaration(node)) shapes.push({ file, name: node.name.text, keys: keysOf(node.members) });
    else if (ts.isTypeAliasDeclaration(node)) shapes.push(...aliasShapes(file, node));
  }
  return shapes;
}

/** Tests and the helpers only tests load. */
const TEST_ONLY = /\.test\.ts$|\/(test|testing)\//;

/** Every shape declared under the given folders; `relativeTo` names files by path from there. */
export function shapesUnder(roots: readonly string[], relativeTo: string): Shape[] {
  return sourceFiles(roots)
    .map((path) => ({ path, file: path.slice(relativeTo.length).replace(/^\//, '') }))
    .filter(({ file }) => !TEST_ONLY.test(`/${file}`))
    .flatMap(({ path, file }) => shapesIn(file, scriptOf(path, readFileSync(path, 'utf8'))));
}

/** The declarations in `shapes` that repeat one in `contract`, each with the contract's name for it. */
export function repeats(shapes: readonly Shape[], contract: readonly Shape[]): { shape: Shape; contract: Shape }[] {
  const byName = new Map(contract.map((c) => [c.name, c]));
  const byKeys = new Map(contract.filter((c) => c.keys.length >= MIN_KEYS).map((c) => [c.keys.join(','), c]));
  const found = new Map<string, { shape: Shape; contract: Shape }>();
  for (const shape of shapes) {
    const same =
      byName.get(shape.name) ?? (shape.keys.length >= MIN_KEYS ? byKeys.get(shape.keys.join(',')) : undefined);
    // A union alias is several shapes under one name: report the declaration once.
    if (same && !found.has(`${shape.file} ${shape.name}`))
      found.set(`${shape.file} ${shape.name}`, { shape, contract: same });
  }
  return [...found.values()];
}
