// Runs once when the Next server starts: turns a previous server left running can never finish, so mark them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // with several server processes (scripts/serve.mjs) only the first sweeps: the others' siblings are running turns
  if (process.env.CHATTY_STARTUP_SWEEP === "0") return;
  try {
    const { getQueries } = await import("@/lib/db/queries");
    const count = await getQueries().markInterruptedTurns();
    if (count > 0) console.info(`[chatty-kg] marked ${count} unfinished turn(s) as interrupted`);
  } catch (e) {
    // A missing or unmigrated database must not stop the server from serving the home page and /api/health.
    console.warn(`[chatty-kg] could not mark interrupted turns: ${e instanceof Error ? e.message : String(e)}`);
  }
}
