// CPU accounting for the load report: /proc stat parsing, the process tree, per-turn figures.
import os from "node:os";
import { describe, expect, it } from "vitest";
import { cpuPerTurn, processTree, sampleCpu, statCpuMs } from "./cpu";

describe("statCpuMs", () => {
  it("reads utime + stime (ticks of 10 ms) even when the command name has spaces and parentheses", () => {
    const stat = "4242 (node (next) srv) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 11 0 100 0 0";
    expect(statCpuMs(stat)).toBe(3000);
  });
});

describe.skipIf(os.platform() !== "linux")("sampleCpu (Linux /proc)", () => {
  it("includes the process itself, and its CPU grows with work", () => {
    expect(processTree(process.pid)).toContain(process.pid);
    const before = sampleCpu(process.pid)!;
    // 200 ms of this process's own CPU (not wall time: on a busy machine a wall-clock loop may get little of it)
    const start = process.cpuUsage();
    let x = 0;
    while ((process.cpuUsage(start).user + process.cpuUsage(start).system) / 1000 < 200) x += Math.sqrt(x + 1);
    const after = sampleCpu(process.pid)!;
    // /proc counts in 10 ms ticks
    expect(after.allMs - before.allMs).toBeGreaterThanOrEqual(150);
    expect(after.mainMs).toBeLessThanOrEqual(after.allMs);
    expect(cpuPerTurn(before, after, 10)!.allMs).toBeGreaterThan(0);
    expect(cpuPerTurn(before, after, 0)).toBeNull();
  });
});
