/**
 * The import graph of the source folders, and the cycles in it, at two levels: files and folders.
 * A cycle between files means neither can be read (or loaded) without the other; a cycle between
 * folders means two features lean on each other and neither is the lower layer. Both are refused
 * by scripts/import-cycles.test.ts; docs/architecture.md says which way imports point.
 *
 * Imports are read with the TypeScript compiler's pre-processor (no type checking, so it is fast
 * and sees `import type` too: a type cycle is still a cycle for a reader). Svelte files give their
 * `<script>` blocks. Only relative imports count; packages and `node:` modules are not ours.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|mts|mjs|js|svelte)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', '.git']);

/** Every source file under the given folders, as absolute paths. */
export function sourceFiles(roots: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (SKIP_DIRS.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root);
  return out.sort();
}

/** The module specifiers a file imports or re-exports (static and dynamic). */
export function specifiersOf(path: string): string[] {
  let text = readFileSync(path, 'utf8');
  if (path.endsWith('.svelte')) {
    text = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  }
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

const CANDIDATES = ['', '.ts', '.svelte', '.js', '.mjs', '/index.ts', '/index.js'];

/** Where a relative specifier lands, or undefined for packages and files that do not exist. */
export function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const bases = [base];
  // TypeScript lets `./x.js` name `./x.ts`.
  if (/\.m?js$/.test(base)) bases.push(base.replace(/\.(m?)js$/, '.$1ts'));
  for (const b of bases) {
    for (const ext of CANDIDATES) {
      const path = b + ext;
      if (existsSync(path) && statSync(path).isFile()) return path;
    }
  }
  return undefined;
}

export type Graph = Map<string, Set<string>>;

/** File → files it imports, paths relative to `root` with forward slashes. */
export function fileGraph(root: string, folders: readonly string[]): Graph {
  const rel = (p: string): string => relative(root, p).split(sep).join('/');
  const graph: Graph = new Map();
  for (const file of sourceFiles(folders.map((f) => join(root, f)))) {
    const edges = new Set<string>();
    for (const spec of specifiersOf(file)) {
      const target = resolveImport(file, spec);
      if (target && target !== file) edges.add(rel(target));
    }
    graph.set(rel(file), edges);
  }
  return graph;
}

/** Test files and their rigs: they may reach across folders, as e2e/ does, so folders skip them. */
export const isTestCode = (file: string): boolean => /\.test\.ts$/.test(file) || /\/(testing|test|fixtures)\//.test(file);

/**
 * The folder a file belongs to, for the folder graph: the feature folder right under its root
 * (`server/motion/reel.ts` and `server/camera/relay/x.ts` → `server/motion`, `server/camera`).
 * A file right in a root (`server/config.ts`) is a node of its own: it is a module every feature
 * may use, and it must not lean back on them.
 */
export function folderOf(file: string, roots: readonly string[]): string {
  const root = roots.filter((r) => file.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return file;
  const rest = file.slice(root.length + 1);
  return rest.includes('/') ? `${root}/${rest.slice(0, rest.indexOf('/'))}` : file;
}

/** Feature folder → feature folders its production files import. */
export function folderGraph(files: Graph, roots: readonly string[]): Graph {
  const graph: Graph = new Map();
  for (const [file, targets] of files) {
    if (isTestCode(file)) continue;
    const from = folderOf(file, roots);
    const edges = graph.get(from) ?? new Set<string>();
    for (const t of targets) if (folderOf(t, roots) !== from) edges.add(folderOf(t, roots));
    graph.set(from, edges);
  }
  return graph;
}

/** The file that makes each step of a folder cycle, so the message says what to move. */
export function witnesses(files: Graph, roots: readonly string[], cycle: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < cycle.length; i += 1) {
    for (const [file, targets] of files) {
      if (isTestCode(file) || folderOf(file, roots) !== cycle[i]) continue;
      const target = [...targets].find((t) => folderOf(t, roots) === cycle[i + 1]);
      if (target) {
        out.push(`${file} -> ${target}`);
        break;
      }
    }
  }
  return out;
}

/**
 * The cycles of a graph, one per strongly connected component of more than one node, each as a
 * closed path (first node repeated at the end) so the message shows the way round.
 */
export function cyclesOf(graph: Graph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const connect = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) connect(v);
  return components.map((c) => pathRound(graph, new Set(c)));
}

/** A shortest way from the component's first node back to itself, inside the component. */
function pathRound(graph: Graph, members: Set<string>): string[] {
  const start = [...members].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path: string[] = [];
        for (let at = v; at !== start; at = previous.get(at)!) path.unshift(at);
        return [start, ...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...members];
}
