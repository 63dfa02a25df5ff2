// The code-layout rules of the developers' guide, checked on an import graph (import-graph.ts); each returns the
// violations as sentences naming the files, so a failing test says what to move.
import type { ImportGraph } from "./import-graph";

export const MAX_LINES = 400;
const PIPELINE = "lib/pipeline/";
/** Shared by the strategies; every other folder directly under lib/pipeline/ is one strategy's. */
const COMMON = "common";

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The folder under lib/pipeline/ a file is in ("chatty-kg", "common", …), undefined for files directly in it or elsewhere. */
export function pipelineFolder(file: string): string | undefined {
  if (!file.startsWith(PIPELINE)) return undefined;
  const parts = file.slice(PIPELINE.length).split("/");
  return parts.length > 1 ? parts[0] : undefined;
}

function* edges(graph: ImportGraph): Generator<[string, string]> {
  for (const [from, targets] of graph) for (const to of targets) yield [from, to];
}

/**
 * A strategy never imports another strategy's folder, and common/ (what strategies share) imports none: what two
 * strategies share moves to common/. Tests included (a strategy's test exercises that strategy).
 */
export function crossStrategyImports(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, to] of edges(graph)) {
    const own = pipelineFolder(from);
    const other = pipelineFolder(to);
    if (own === undefined || other === undefined || other === COMMON || other === own) continue;
    out.push(own === COMMON ? `${from} (shared by the strategies) imports strategy ${other}: ${to}` : `${from} (strategy ${own}) imports strategy ${other}: ${to}`);
  }
  return out.sort();
}

/**
 * Nothing under lib/pipeline imports lib/eval (the evaluation layer sits on top of the pipeline). Test files may read
 * evaluation data (gold questions, scripted replies) to measure a strategy: nothing they hold reaches the app.
 */
export function pipelineToEvalImports(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, to] of edges(graph)) {
    if (from.startsWith(PIPELINE) && !isTest(from) && to.startsWith("lib/eval/")) out.push(`${from} imports ${to}`);
  }
  return out.sort();
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cyclicComponents(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** The shortest import path from `start` back to itself inside `component` (breadth-first). */
function shortestCycle(graph: ImportGraph, start: string, component: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** One import cycle per group of files that import each other, as "a.ts → b.ts → a.ts". */
export function importCycles(graph: ImportGraph): string[] {
  return cyclicComponents(graph).map((component) => {
    const cycle = shortestCycle(graph, component[0], new Set(component));
    const more = component.length > cycle.length - 1 ? ` (${component.length} files import each other: ${component.join(", ")})` : "";
    return `${cycle.join(" → ")}${more}`;
  });
}

/** Files (path → text) over `max` lines. */
export function oversizedFiles(sources: ReadonlyMap<string, string>, max = MAX_LINES): string[] {
  const out: string[] = [];
  for (const [file, text] of sources) {
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > max) out.push(`${file}: ${lines} lines (at most ${max})`);
  }
  return out.sort();
}
