/**
 * Which object shapes a folder declares, and which of them the wire contract (server/contract/)
 * already has: scripts/contract-shapes.test.ts refuses a renderer or platform-client declaration
 * that repeats a contract shape, so every shape that crosses the wire has one source
 * (docs/contract.md). A shape is an interface or an object type alias; two shapes are the same
 * when they have the same name, or the same set of property names (three or more, so small
 * look-alikes such as `{ ok, error }` do not count). Svelte files give their `<script>` blocks.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { sourceFiles } from './import-cycles.ts';

export interface Shape {
  file: string;
  name: string;
  /** Property names, sorted. */
  keys: string[];
}

/** The fewest properties for two unnamed look-alikes to count as one shape. */
export const MIN_KEYS = 3;

function scriptOf(path: string): string {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

function keysOf(members: ts.NodeArray<ts.TypeElement>): string[] {
  return members
    .filter((m): m is ts.PropertySignature | ts.MethodSignature => ts.isPropertySignature(m) || ts.isMethodSignature(m))
    .map((m) => (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText()))
    .sort();
}

/** The top-level interfaces and object type aliases in one source text. */
export function shapesIn(file: string, text: string): Shape[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const shapes: Shape[] = [];
  for (const node of source.statements) {
    if (ts.isInterfaceDeclaration(node)) shapes.push({ file, name: node.name.text, keys: keysOf(node.members) });
    else if (ts.isTypeAliasDeclaration(node) && ts.isTypeLiteralNode(node.type)) {
      shapes.push({ file, name: node.name.text, keys: keysOf(node.type.members) });
    }
  }
  return shapes;
}

/** Every shape declared under the given folders; `relativeTo` names files by path from there. */
export function shapesUnder(roots: readonly string[], relativeTo: string): Shape[] {
  return sourceFiles(roots)
    .filter((path) => !/\.test\.ts$/.test(path))
    .flatMap((path) => shapesIn(path.slice(relativeTo.length).replace(/^\//, ''), scriptOf(path)));
}

/** The declarations in `shapes` that repeat one in `contract`, each with the contract's name for it. */
export function repeats(shapes: readonly Shape[], contract: readonly Shape[]): { shape: Shape; contract: Shape }[] {
  const byName = new Map(contract.map((c) => [c.name, c]));
  const byKeys = new Map(contract.filter((c) => c.keys.length >= MIN_KEYS).map((c) => [c.keys.join(','), c]));
  const found: { shape: Shape; contract: Shape }[] = [];
  for (const shape of shapes) {
    const same = byName.get(shape.name) ?? (shape.keys.length >= MIN_KEYS ? byKeys.get(shape.keys.join(',')) : undefined);
    if (same) found.push({ shape, contract: same });
  }
  return found;
}
