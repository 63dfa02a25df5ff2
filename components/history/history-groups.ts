// The history list grouped by the day of each conversation's last activity (Today, Yesterday, then dates), newest first.

export interface DayGroup<T> {
  /** "Today", "Yesterday", or a date such as "Mon 24 Nov" (with the year when it is not this year's) */
  label: string;
  items: T[];
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** Built by hand: Intl's short dates differ between runtimes ("Fri 3 Jan" vs "Fri, 3 Jan") */
const dateLabel = (d: Date, withYear: boolean) => `${WEEKDAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}${withYear ? ` ${d.getFullYear()}` : ""}`;
const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

/** Groups by local calendar day of `at(item)`; `now` is passed in so tests do not depend on the clock. */
export function groupByDay<T>(items: T[], at: (item: T) => string, now: Date = new Date()): DayGroup<T>[] {
  const sorted = [...items].sort((a, b) => at(b).localeCompare(at(a)));
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const groups: DayGroup<T>[] = [];
  const byKey = new Map<string, DayGroup<T>>();
  for (const item of sorted) {
    const d = new Date(at(item));
    const key = dayKey(d);
    let g = byKey.get(key);
    if (!g) {
      const label =
        key === today
          ? "Today"
          : key === yesterday
            ? "Yesterday"
            : dateLabel(d, d.getFullYear() !== now.getFullYear());
      g = { label, items: [] };
      byKey.set(key, g);
      groups.push(g);
    }
    g.items.push(item);
  }
  return groups;
}

/** A conversation's time as the list shows it: the time today, else the date. */
export function shortTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return dayKey(d) === dayKey(now) ? `${pad(d.getHours())}:${pad(d.getMinutes())}` : `${d.getDate()} ${MONTHS[d.getMonth()]}`;
}
