// The simulated users of `npm run load`: each a browser with its own cookies (signed in when the server asks for a
// password), asking a conversation's turns over the UI message stream, then reading back through the export route what
// the server stored.
import { LoadBrowser } from "./browser";

/** How each simulated browser reaches the server: base URL and, when sign-in is on, the shared password. */
export interface Visit {
  base: string;
  password?: string;
}

let browsers = 0;
/** A new browser, signed in when a password is given; each gets its own client address (the sign-in limit counts per address). */
export async function newBrowser(visit: Visit): Promise<LoadBrowser> {
  const n = browsers++;
  const b = new LoadBrowser({ base: visit.base, address: `10.77.${(n >> 8) & 255}.${n & 255}` });
  if (visit.password !== undefined) await b.signIn(visit.password);
  return b;
}

export interface TurnOutcome {
  ok: boolean;
  ms: number;
  conversationId?: string;
  error?: string;
}

/** One turn over the UI message stream; ok when data-result says "done". */
export async function askTurn(client: LoadBrowser, question: string, conversationId: string | undefined, signal: AbortSignal): Promise<TurnOutcome> {
  const t0 = performance.now();
  try {
    const res = await client.fetch("/api/turns", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question, kgId: "sample", ...(conversationId ? { conversationId } : {}) }),
      signal,
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) return { ok: false, ms, error: `HTTP ${res.status}: ${text.slice(0, 200)}` };
    const parts = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)) as { type: string; data?: Record<string, unknown> });
    const start = parts.find((p) => p.type === "data-turn")?.data;
    const result = parts.find((p) => p.type === "data-result")?.data as { status?: string; result?: { error?: { message?: string } } } | undefined;
    const cid = start?.conversationId as string | undefined;
    if (result?.status !== "done") return { ok: false, ms, conversationId: cid, error: `turn ${result?.status ?? "without result"}: ${result?.result?.error?.message ?? ""}` };
    return { ok: true, ms, conversationId: cid };
  } catch (e) {
    return { ok: false, ms: performance.now() - t0, error: e instanceof Error ? e.message : String(e) };
  }
}

export interface ConversationRun {
  client: LoadBrowser;
  conversationId?: string;
  asked: string[];
  outcomes: TurnOutcome[];
}

/** Asks `questions` in order in one new conversation (stops when a turn created none); signing in is not timed. */
export async function runConversation(visit: Visit, questions: readonly string[], signal: AbortSignal): Promise<ConversationRun> {
  const run: ConversationRun = { client: await newBrowser(visit), asked: [], outcomes: [] };
  for (let i = 0; i < questions.length && !signal.aborted; i++) {
    run.asked.push(questions[i]);
    const o = await askTurn(run.client, questions[i], run.conversationId, signal);
    run.conversationId ??= o.conversationId;
    run.outcomes.push(o);
    if (!run.conversationId) break; // nothing to continue
  }
  return run;
}

/** Turns stored with status done and the question asked, read back through the export route. */
export async function storedDone(run: ConversationRun): Promise<number> {
  if (!run.conversationId) return 0;
  const res = await run.client.fetch(`/api/conversations/${run.conversationId}/export?format=json`);
  if (res.status !== 200) return 0;
  const body = (await res.json()) as { turns: { question: string; status: string; answer: unknown }[] };
  return body.turns.filter((t, i) => t.status === "done" && t.question === run.asked[i] && t.answer !== null).length;
}
