// The import rules of the house (README, "Layout"), checked over the source as text: every
// `import`/`export … from` (type-only ones included) and every `import('…')` between the
// project's own files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The folders whose code is checked, relative to the repository root. */
const ROOTS = ['src', 'common', 'web/src', 'sdk/src'];
/** Path aliases of the dashboard's build (web/tsconfig.json, web/vite.config.ts). */
const ALIASES: Record<string, string> = { '@lamis/sdk': 'sdk/src/index.ts' };

const STATIC = /^[ \t]*(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]*?\s*from\s*)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportGraph {
  root: string;
  /** Each module (repository-relative, `/`-separated) and the project modules it imports. */
  edges: Map<string, string[]>;
}

function sourceFiles(root: string, folder: string, into: string[]): void {
  const absolute = path.join(root, folder);
  if (!existsSync(absolute)) return;
  for (const name of readdirSync(absolute)) {
    const relative = `${folder}/${name}`;
    if (statSync(path.join(root, relative)).isDirectory()) sourceFiles(root, relative, into);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) into.push(relative);
  }
}

function resolve(root: string, from: string, specifier: string): string | null {
  const aliased = ALIASES[specifier];
  if (aliased) return aliased;
  if (!specifier.startsWith('.')) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) {
    if (existsSync(path.join(root, candidate)) && statSync(path.join(root, candidate)).isFile()) return candidate;
  }
  return target;
}

export function importGraph(root: string): ImportGraph {
  const files: string[] = [];
  for (const folder of ROOTS) sourceFiles(root, folder, files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const targets = [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)]
      .map((match) => resolve(root, file, match[1]!))
      .filter((target): target is string => target !== null);
    edges.set(file, [...new Set(targets)]);
  }
  return { root, edges };
}

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
export function cycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.edges.get(module) ?? []) {
      if (!graph.edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module)!, index.get(next)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.edges.get(module)?.includes(module)) found.push(component.sort());
  };
  for (const module of graph.edges.keys()) if (!index.has(module)) visit(module);
  return found;
}

/** `src/<feature>/…` → the feature; the platform counts as one; top-level files (server, cli, config) as none. */
function featureOf(module: string): string | null {
  return /^src\/([^/]+)\//.exec(module)?.[1] ?? null;
}

/** Every module reachable from `start`, with the path that reaches it. */
export function reachable(graph: ImportGraph, start: string): Map<string, string[]> {
  const paths = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const module = queue.shift()!;
    for (const next of graph.edges.get(module) ?? []) {
      if (paths.has(next)) continue;
      paths.set(next, [...paths.get(module)!, next]);
      queue.push(next);
    }
  }
  return paths;
}

/** What breaks the house rules, one sentence each; empty when the layout holds. */
export function violations(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const component of cycles(graph)) found.push(`import cycle: ${component.join(' → ')}`);
  for (const [module, targets] of graph.edges) {
    const area = module.split('/')[0];
    const feature = featureOf(module);
    for (const target of targets) {
      const targetFeature = featureOf(target);
      if (area === 'web' && target.startsWith('src/')) found.push(`web imports server code: ${module} → ${target}`);
      if (area === 'web' && target.startsWith('sdk/') && target !== 'sdk/src/index.ts') {
        found.push(`web imports the SDK past its public exports: ${module} → ${target}`);
      }
      if (area === 'common' && !target.startsWith('common/')) found.push(`common imports outside common: ${module} → ${target}`);
      if ((area === 'src' || area === 'sdk') && target.startsWith('web/')) found.push(`${area} imports the dashboard: ${module} → ${target}`);
      if (area === 'sdk' && target.startsWith('src/')) found.push(`the SDK imports server code: ${module} → ${target}`);
      if (feature && targetFeature && feature !== targetFeature && targetFeature !== 'platform' && target !== `src/${targetFeature}/index.ts`) {
        found.push(`${feature} reaches past ${targetFeature}'s index: ${module} → ${target}`);
      }
    }
    if (feature === 'platform') {
      for (const [reached, via] of reachable(graph, module)) {
        if (reached.startsWith('src/') && featureOf(reached) !== 'platform') {
          found.push(`platform reaches ${reached}: ${via.join(' → ')}`);
          break;
        }
      }
    }
  }
  return found;
}
