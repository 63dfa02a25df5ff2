// Turns "a function that emits events and returns a result" into an async generator the UI and CLI can iterate.

/**
 * Runs `work(emit)` and yields each emitted event as it happens; the generator's return value is work's result.
 * If work throws, the error is rethrown after the events emitted before it have been yielded.
 */
export async function* streamEvents<E, R>(work: (emit: (event: E) => void) => Promise<R>): AsyncGenerator<E, R, void> {
  const queue: E[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let outcome: { ok: true; value: R } | { ok: false; error: unknown } | undefined;

  const emit = (event: E) => {
    queue.push(event);
    wake?.();
  };
  work(emit).then(
    (value) => {
      outcome = { ok: true, value };
      done = true;
      wake?.();
    },
    (error: unknown) => {
      outcome = { ok: false, error };
      done = true;
      wake?.();
    },
  );

  while (true) {
    while (queue.length > 0) yield queue.shift() as E;
    if (done) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  while (queue.length > 0) yield queue.shift() as E;
  if (!outcome || !outcome.ok) throw outcome?.error;
  return outcome.value;
}
