import { describe, expect, it } from "vitest";
import { groupByDay, shortTime } from "./history-groups";

const now = new Date(2026, 10, 28, 15, 0); // 28 Nov 2026, local time
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m, d, h).toISOString();

describe("the history grouped by day", () => {
  it("puts conversations under Today, Yesterday and dates, newest first", () => {
    const items = [
      { id: "old", at: at(2026, 10, 20) },
      { id: "today-early", at: at(2026, 10, 28, 9) },
      { id: "yesterday", at: at(2026, 10, 27) },
      { id: "today-late", at: at(2026, 10, 28, 14) },
      { id: "last-year", at: at(2025, 0, 3) },
    ];
    const groups = groupByDay(items, (i) => i.at, now);
    expect(groups.map((g) => g.label)).toEqual(["Today", "Yesterday", "Fri 20 Nov", "Fri 3 Jan 2025"]);
    expect(groups[0].items.map((i) => i.id)).toEqual(["today-late", "today-early"]);
  });

  it("shows the time for today and the date otherwise", () => {
    expect(shortTime(at(2026, 10, 28, 9), now)).toBe("09:00");
    expect(shortTime(at(2026, 10, 20), now)).toBe("20 Nov");
  });
});
