// "Import result file": uploads a result.json; it becomes a run of this browser session and opens.
"use client";
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { UploadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { fetchJson } from "@/components/api-client";
import { runHref, type RunListEntry } from "@/lib/eval/view-model-list";

export function ImportRun() {
  const input = useRef<HTMLInputElement>(null);
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const { entry } = await fetchJson<{ entry: RunListEntry }>("/eval/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: file,
        timeoutMs: 120_000,
      });
      router.push(runHref(entry.ref));
      router.refresh();
    } catch (e) {
      setError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="flex flex-col items-end gap-1">
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        className="sr-only"
        data-testid="import-file"
        aria-label="Result file to import"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void upload(f);
        }}
      />
      <Button variant="outline" size="sm" disabled={busy} onClick={() => input.current?.click()} data-testid="import-run">
        <UploadIcon /> {busy ? "Importing…" : "Import result file"}
      </Button>
      {error && (
        <p role="alert" data-testid="import-error" className="max-w-md text-right text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
