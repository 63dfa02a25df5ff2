// "Add endpoint…": a SPARQL endpoint URL, a name and an optional profile preset; the server checks it before adding.
"use client";
import { useState } from "react";
import type { KgCreatedResponse, KgListItem } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { ApiRequestError, fetchJson } from "@/components/api-client";
import { ErrorNote } from "@/components/chat/error-note";

export function EndpointDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (o: boolean) => void; onAdded: (kg: KgListItem) => void }) {
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [profile, setProfile] = useState("");
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = await fetchJson<KgCreatedResponse>("/api/kg/endpoint", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: url.trim(), name: name.trim() || undefined, profile: profile || undefined }),
        timeoutMs: 60_000,
      });
      onAdded(body.kg);
      onOpenChange(false);
      setUrl("");
      setName("");
    } catch (e) {
      // the sentence for its code, the server's words (which name the URL and the rule) in the details line
      if (e instanceof ApiRequestError) setError({ code: e.error.code, message: e.error.message });
      else if (e instanceof Error && e.name === "TimeoutError") setError({ code: "kg_timeout", message: "No answer from the endpoint within 60 s." });
      else setError({ code: "network", message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="endpoint-dialog">
        <DialogHeader>
          <DialogTitle>Add a SPARQL endpoint</DialogTitle>
          <DialogDescription>Questions will be answered with read-only queries sent to this endpoint.</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label className="flex flex-col gap-1 text-sm">
            Endpoint URL
            <Input required type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://query.wikidata.org/sparql" />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Name (optional)
            <Input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Profile
            <Select value={profile} onChange={(e) => setProfile(e.target.value)}>
              <option value="">Generic (rdfs:label)</option>
              <option value="wikidata">Wikidata</option>
              <option value="dbpedia">DBpedia</option>
              <option value="dblp">DBLP</option>
              <option value="yago">YAGO</option>
            </Select>
          </label>
          {error && <ErrorNote error={error} />}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!url.trim() || busy}>
              {busy ? "Checking…" : "Add"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
