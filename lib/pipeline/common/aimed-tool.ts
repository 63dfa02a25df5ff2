// The trace event of the examples one-call makes for a question (aimed-examples.ts), as the derivation panel reads it:
// kept apart from that module so the browser bundle imports a name and a reader, not the generators.

/** the tool-call event's tool name */
export const AIMED_EXAMPLES_TOOL = "examples for this question";

export interface AimedReport {
  /** the classes generated for, by name */
  classes: string[];
  /** the questions of the examples made */
  made: string[];
  /** candidate queries run */
  ran: number;
  /** all queries (sample reads, two-hop reads, candidates) */
  queries: number;
  skipped?: string;
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined);

/** The report of a tool-call event's input and output, or undefined when they are not one (an older trace). */
export function readAimedReport(input: unknown, output: unknown): AimedReport | undefined {
  const i = (input ?? {}) as Record<string, unknown>;
  const o = (output ?? {}) as Record<string, unknown>;
  const classes = strings(i.classes);
  const made = strings(o.made);
  if (!classes || !made || typeof o.ran !== "number" || typeof o.queries !== "number") return undefined;
  return { classes, made, ran: o.ran, queries: o.queries, ...(typeof o.skipped === "string" ? { skipped: o.skipped } : {}) };
}
