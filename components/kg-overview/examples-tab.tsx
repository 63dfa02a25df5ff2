// The generated solved examples of a KG: question, shape, query; each can be asked, opened in the SPARQL editor,
// kept for good (promoted: it survives re-runs and ranks with the approved pairs) or deleted.
"use client";
import { useEffect, useMemo, useState } from "react";
import { ThumbsUpIcon, Trash2Icon } from "lucide-react";
import { EXAMPLE_SHAPES, type ExampleShape, type GeneratedExample } from "@/lib/kg/onboarding/types";
import { Badge } from "@/components/ui/badge";
import { Select } from "@/components/ui/select";
import { onboardingApi } from "@/components/onboarding/onboarding-client";
import { InsertButtons } from "./insert-buttons";

const SHAPE_WORDS: Record<string, string> = {
  "class-list": "list of a class",
  "class-count": "count of a class",
  "value-of": "value of a thing",
  "with-value": "things with a value",
  "numeric-filter": "number filter",
  "date-filter": "date filter",
  superlative: "largest / smallest",
  order: "ordered list",
  "count-per-group": "count per group",
  "two-hop": "two hops",
  compare: "comparison",
  "yes-no": "yes / no",
  aggregate: "sum / average",
};

/** A shape in words (a shape added later reads as its id). */
export const shapeWords = (shape: string) => SHAPE_WORDS[shape] ?? shape.replace(/-/g, " ");

export function ExamplesTab({ kgId, refreshKey, onTotal }: { kgId: string; refreshKey: string; /** the count after a load or a delete */ onTotal?: (n: number) => void }) {
  const [examples, setExamples] = useState<GeneratedExample[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [shape, setShape] = useState<ExampleShape | "">("");
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    onboardingApi
      .examples(kgId, controller.signal)
      .then((r) => {
        setExamples(r.examples);
        setTotal(r.total);
        onTotal?.(r.total);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => controller.abort();
  }, [kgId, refreshKey]);

  const shown = useMemo(() => (examples ?? []).filter((e) => !shape || e.shape === shape), [examples, shape]);
  const shapes = useMemo(() => EXAMPLE_SHAPES.filter((s) => examples?.some((e) => e.shape === s)), [examples]);

  const act = async (id: string, kind: "delete" | "promote") => {
    setBusy(id);
    setError(null);
    try {
      if (kind === "delete") {
        await onboardingApi.deleteExample(kgId, id);
        setExamples((xs) => xs?.filter((x) => x.id !== id) ?? null);
        setTotal(total - 1);
        onTotal?.(total - 1);
      } else {
        const { example } = await onboardingApi.promoteExample(kgId, id);
        setExamples((xs) => xs?.map((x) => (x.id === id ? example : x)) ?? null);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  if (examples === null) return <p className="p-4 text-sm text-muted-foreground">{error ?? "Loading the examples…"}</p>;
  if (examples.length === 0) return <p className="p-4 text-sm text-muted-foreground">No generated examples yet: they appear here while the KG is prepared.</p>;
  return (
    <div className="flex flex-col gap-2 p-3 text-sm" data-testid="overview-examples">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-muted-foreground">
          {total.toLocaleString("en")} example{total === 1 ? "" : "s"}, built from this KG&apos;s own shapes and checked against it. The strategies learn from them.
        </span>
        <span className="flex-1" />
        <Select aria-label="Show examples of one shape" className="w-44" value={shape} onChange={(e) => setShape(e.target.value as ExampleShape | "")}>
          <option value="">All shapes</option>
          {shapes.map((s) => (
            <option key={s} value={s}>
              {shapeWords(s)}
            </option>
          ))}
        </Select>
      </div>
      {error && (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
      <ul className="flex flex-col gap-1.5">
        {shown.map((e) => (
          <li key={e.id} className="rounded-md border bg-card px-3 py-2" data-testid="overview-example" data-shape={e.shape} data-status={e.status}>
            <div className="flex items-start gap-2">
              <span className="min-w-0 flex-1 font-medium break-words">{e.question}</span>
              <InsertButtons label={e.question} question={e.question} questionMode="replace" sparql={e.sparql} />
              <button
                type="button"
                className="inline-flex size-6 items-center justify-center rounded text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-40 aria-pressed:text-primary"
                aria-label={e.status === "promoted" ? "Kept (promoted)" : `Keep this example: “${e.question}”`}
                aria-pressed={e.status === "promoted"}
                title={e.status === "promoted" ? "Kept: it survives re-runs" : "Keep it: it survives re-runs and ranks with approved pairs"}
                disabled={busy === e.id}
                data-testid="example-promote"
                onClick={() => e.status !== "promoted" && void act(e.id, "promote")}
              >
                <ThumbsUpIcon className="size-3.5" aria-hidden />
              </button>
              <button
                type="button"
                className="inline-flex size-6 items-center justify-center rounded text-muted-foreground hover:bg-destructive/10 hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-40"
                aria-label={`Delete this example: “${e.question}”`}
                title="Delete it"
                disabled={busy === e.id}
                data-testid="example-delete"
                onClick={() => void act(e.id, "delete")}
              >
                <Trash2Icon className="size-3.5" aria-hidden />
              </button>
            </div>
            <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
              <Badge variant="muted">{shapeWords(e.shape)}</Badge>
              {e.status === "promoted" && <Badge variant="success">kept</Badge>}
              <span className="min-w-0 break-words" data-testid="example-answer">
                {e.preview.length > 0 ? `→ ${e.preview.join(", ")}${e.answerSize > e.preview.length ? ` … (${e.answerSize.toLocaleString("en")})` : ""}` : `${e.answerSize.toLocaleString("en")} answer${e.answerSize === 1 ? "" : "s"}`}
              </span>
              <span>· question by {e.verbalizer === "llm" ? "the model (checked)" : "a template"}</span>
            </div>
            <details className="mt-1">
              <summary className="cursor-pointer text-xs text-muted-foreground">SPARQL</summary>
              <pre className="mt-1 overflow-x-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{e.sparql}</pre>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
