// Said wherever a hand-written test run is shown (lib/eval/fixture-run.ts), so it cannot pass for a measurement.
import { FIXTURE_NOTE } from "@/lib/eval/fixture-run";

export function FixtureNote({ runIds }: { runIds?: string[] }) {
  return (
    <p role="note" className="rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm" data-testid="fixture-note">
      {FIXTURE_NOTE}
      {runIds && runIds.length > 0 && <span className="block text-xs break-all text-muted-foreground">{runIds.join(", ")}</span>}
    </p>
  );
}
