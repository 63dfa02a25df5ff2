// CPU time of a process tree from /proc (Linux): main threads and all threads, to report CPU ms per turn in `npm run load`.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/** Clock ticks per second of /proc's utime/stime (sysconf(_SC_CLK_TCK); 100 on every Linux we run). */
const TICKS_PER_S = 100;

export interface CpuSample {
  /** ms of CPU the processes' main threads used (JS, the event loop) */
  mainMs: number;
  /** ms of CPU all their threads used (plus worker threads: KG store, libuv pool, GC helpers) */
  allMs: number;
  /** processes sampled */
  processes: number;
  /** all-threads ms per pid */
  perProcess: Record<number, number>;
}

/** utime + stime in ms from a /proc/…/stat line (the command name may contain spaces and parentheses). */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is "state" (field 3); utime and stime are fields 14 and 15
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

function ppidOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // the process or thread ended
  }
}

/** The pid and all its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const ppid = ppidOf(stat);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU used so far by the tree under `root` (null where /proc is missing: not Linux). */
export function sampleCpu(root: number): CpuSample | null {
  if (os.platform() !== "linux") return null;
  let mainMs = 0;
  let allMs = 0;
  const perProcess: Record<number, number> = {};
  const pids = processTree(root);
  for (const pid of pids) {
    // /proc/<pid>/stat counts every thread of the process; task/<pid>/stat the main thread alone
    const all = read(`/proc/${pid}/stat`);
    const main = read(`/proc/${pid}/task/${pid}/stat`);
    if (all) {
      allMs += statCpuMs(all);
      perProcess[pid] = statCpuMs(all);
    }
    if (main) mainMs += statCpuMs(main);
  }
  return { mainMs, allMs, processes: pids.length, perProcess };
}

/** Per-turn CPU between two samples. */
export function cpuPerTurn(before: CpuSample | null, after: CpuSample | null, turns: number): { mainMs: number; allMs: number } | null {
  if (!before || !after || turns <= 0) return null;
  const r = (n: number) => Math.round(n * 10) / 10;
  return { mainMs: r((after.mainMs - before.mainMs) / turns), allMs: r((after.allMs - before.allMs) / turns) };
}
