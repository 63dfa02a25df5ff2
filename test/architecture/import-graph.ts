// The repository's import graph: every source file and the source files it imports (static, type-only, re-exports,
// dynamic import() and require() with a literal path), read with the TypeScript compiler's import scanner and
// resolved like tsconfig/vitest do (`@/` = the repository root, relative paths, extensionless or `.js` for `.ts`).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".mjs", ".cjs", ".js"] as const;

/** Folders that hold no hand-written source: installed packages, Prisma's clients, build and test output, local data. */
const SKIPPED_DIRS = new Set(["node_modules", "generated", ".git", ".data", "test-results", "playwright-report"]);
/** Generated files outside those folders (Next writes next-env.d.ts). */
const GENERATED_FILES = new Set(["next-env.d.ts"]);

export type ImportGraph = Map<string, Set<string>>;

const isSource = (file: string) => SOURCE_EXTENSIONS.some((ext) => file.endsWith(ext));

/**
 * Repository-relative paths (with "/") of every non-generated source file under `root`: in a git checkout the files
 * git tracks and the untracked ones it does not ignore (so nothing .gitignore names, e.g. the Node that
 * scripts/node/use-node.sh unpacks into .tools/), else every file outside the skipped folders.
 */
export function listSourceFiles(root: string): string[] {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    return listed
      .split("\0")
      .filter((rel) => rel && isSource(rel) && !GENERATED_FILES.has(rel) && !rel.split("/").some((part) => SKIPPED_DIRS.has(part)) && fs.existsSync(path.join(root, rel)))
      .sort();
  } catch {
    // not a git checkout (or no git): walk the folders
  }
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".next")) walk(rel);
      } else if (entry.isFile() && isSource(entry.name) && !GENERATED_FILES.has(rel)) out.push(rel);
    }
  };
  walk("");
  return out.sort();
}

/** The module specifiers a file names in imports, re-exports, import() and require(). */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/**
 * The source file `spec` (imported by `from`) resolves to among `files`, or undefined for a package or a non-source
 * file (JSON, CSS). `from` and the result are repository-relative.
 */
export function resolveImport(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.posix.join(path.posix.dirname(from), spec);
  else return undefined;
  base = path.posix.normalize(base);
  const stem = base.replace(/\.(m|c)?js$/, "");
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => `${base}${ext}`),
    // TypeScript's ESM style: "./x.js" names x.ts
    ...(stem !== base ? [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`] : []),
    ...SOURCE_EXTENSIONS.map((ext) => `${base}/index${ext}`),
  ];
  return candidates.find((c) => files.has(c));
}

/** The graph of `sources` (path → text): each file's edges to the files of `sources` it imports. */
export function buildImportGraph(sources: ReadonlyMap<string, string>): ImportGraph {
  const files = new Set(sources.keys());
  const graph: ImportGraph = new Map();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const spec of importSpecifiers(text)) {
      const target = resolveImport(file, spec, files);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every non-generated source file of the repository at `root`, with its text. */
export function readSources(root: string): Map<string, string> {
  return new Map(listSourceFiles(root).map((f) => [f, fs.readFileSync(path.join(root, f), "utf8")]));
}
