// The progress line on stderr: a bar, done/total, elapsed time and ETA (redrawn in place on a TTY, one line per 10% otherwise).
import type { Progress } from "./runner";

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

export function formatProgress(p: Progress, width = 24): string {
  const frac = p.total === 0 ? 1 : p.done / p.total;
  const filled = Math.round(frac * width);
  const left = p.total - p.done;
  // ETA from this process's own pace (resumed questions took no time now)
  const eta = p.ranNow > 0 && left > 0 ? ` ETA ${duration((p.elapsedMs / p.ranNow) * left)}` : "";
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.done}/${p.total} ${duration(p.elapsedMs)}${eta}`;
}

export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr): (p: Progress) => void {
  let lastDecile = -1;
  return (p) => {
    const line = formatProgress(p);
    if (stream.isTTY) {
      stream.write(`\r${line}${p.done === p.total ? "\n" : ""}`);
      return;
    }
    const decile = p.total === 0 ? 10 : Math.floor((p.done / p.total) * 10);
    if (decile !== lastDecile) {
      lastDecile = decile;
      stream.write(`${line}\n`);
    }
  };
}
