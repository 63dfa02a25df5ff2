// The KG notes: a short text derived from the profile that every strategy's prompt gets; the user may rewrite it
// (or go back to the derived text).
"use client";
import { useEffect, useState } from "react";
import { NOTES_MAX_CHARS, type KgNotes } from "@/lib/api/onboarding";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { onboardingApi } from "@/components/onboarding/onboarding-client";

export function NotesTab({ kgId, notes, onSaved }: { kgId: string; notes: KgNotes | null; onSaved: (notes: KgNotes | null) => void }) {
  const [text, setText] = useState(notes?.text ?? "");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setText(notes?.text ?? ""), [notes?.text]);

  const save = async (value: string | null) => {
    setSaving(true);
    setError(null);
    try {
      const r = await onboardingApi.saveNotes(kgId, value);
      onSaved(r.notes);
      setSaved(true);
      window.setTimeout(() => setSaved(false), 1500);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const changed = text.trim() !== (notes?.text ?? "").trim();
  const over = text.length > NOTES_MAX_CHARS;
  return (
    <div className="flex h-full flex-col gap-2 p-3 text-sm" data-testid="overview-notes">
      <p className="text-muted-foreground">
        Every strategy reads these notes with each question on this KG: where the names are, which classes hold the main things, how ids look, units and
        date forms. Correct or add what a newcomer to this KG should know.
      </p>
      <div className="flex items-center gap-2">
        {notes ? <Badge variant={notes.edited ? "default" : "muted"}>{notes.edited ? "Edited by you" : "Derived from the KG"}</Badge> : <Badge variant="muted">Not written yet</Badge>}
        {notes?.updatedAt && <span className="text-xs text-muted-foreground">{new Date(notes.updatedAt).toLocaleString("en")}</span>}
      </div>
      <label htmlFor="kg-notes" className="sr-only">
        KG notes
      </label>
      <Textarea
        id="kg-notes"
        data-testid="notes-input"
        className="min-h-48 flex-1 font-mono text-xs"
        value={text}
        placeholder={notes ? "" : "The notes are written once the KG is prepared; you can write your own now."}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={over || undefined}
      />
      <div className="flex flex-wrap items-center gap-2">
        <span className={over ? "text-xs text-destructive" : "text-xs text-muted-foreground"}>
          {text.length.toLocaleString("en")} / {NOTES_MAX_CHARS.toLocaleString("en")}
        </span>
        <span className="flex-1" />
        {error && (
          <span role="alert" className="text-xs text-destructive">
            {error}
          </span>
        )}
        {saved && <span className="text-xs text-success">Saved</span>}
        {notes?.edited && (
          <Button size="sm" variant="ghost" disabled={saving} onClick={() => void save(null)} data-testid="notes-reset">
            Back to the derived notes
          </Button>
        )}
        <Button size="sm" disabled={!changed || over || saving} onClick={() => void save(text.trim() || null)} data-testid="notes-save">
          Save notes
        </Button>
      </div>
    </div>
  );
}
