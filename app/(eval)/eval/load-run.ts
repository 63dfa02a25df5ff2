// Server-side loading for the evaluation pages: this browser's session and a run by ref (unknown or foreign -> 404).
import "server-only";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { isAppError } from "@/lib/errors";
import { getEvalRunStore, type LoadedRun } from "@/lib/server/eval-runs";
import { readSessionId } from "@/lib/server/session";

export async function evalSession(): Promise<string | null> {
  await connection(); // runs and the session cookie are read per request, never at build time
  return readSessionId();
}

export async function loadRunOr404(ref: string): Promise<LoadedRun> {
  const sessionId = await evalSession();
  try {
    return getEvalRunStore().load(sessionId, ref);
  } catch (e) {
    if (isAppError(e, "not_found")) notFound();
    throw e;
  }
}
