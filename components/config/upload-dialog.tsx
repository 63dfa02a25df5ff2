// "Upload RDF…": pick files, send them with XHR (for real upload progress), and show the server's error with file + line.
"use client";
import { useRef, useState } from "react";
import { UPLOAD_EXTENSIONS, type ApiErrorBody, type KgCreatedResponse, type KgListItem } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";

const UPLOAD_TIMEOUT_MS = 10 * 60_000;

type UploadState = { phase: "idle" } | { phase: "uploading"; percent: number } | { phase: "loading" } | { phase: "error"; message: string };

export function describeUploadError(body: unknown, status: number): string {
  const err = (body as ApiErrorBody | null)?.error;
  if (!err) return `Upload failed (HTTP ${status}).`;
  const where = [err.where?.source, err.where?.line !== undefined ? `line ${err.where.line}` : null, err.where?.column !== undefined ? `column ${err.where.column}` : null]
    .filter(Boolean)
    .join(", ");
  return where ? `${where}: ${err.message}` : err.message;
}

export function UploadDialog({ open, onOpenChange, onUploaded }: { open: boolean; onOpenChange: (o: boolean) => void; onUploaded: (kg: KgListItem) => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState("");
  const [entail, setEntail] = useState(false);
  const [state, setState] = useState<UploadState>({ phase: "idle" });
  const xhrRef = useRef<XMLHttpRequest | null>(null);

  const close = (o: boolean) => {
    if (!o) {
      xhrRef.current?.abort();
      setFiles([]);
      setName("");
      setEntail(false);
      setState({ phase: "idle" });
    }
    onOpenChange(o);
  };

  const upload = () => {
    const form = new FormData();
    for (const f of files) form.append("files", f);
    if (name.trim()) form.append("name", name.trim());
    if (entail) form.append("entailment", "rdfs");
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("POST", "/api/kg/upload");
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) setState({ phase: "uploading", percent: Math.round((e.loaded / e.total) * 100) });
    };
    // once the bytes are sent the server parses and loads the RDF
    xhr.upload.onload = () => setState({ phase: "loading" });
    xhr.onload = () => {
      if (xhr.status === 201 || xhr.status === 200) {
        const body = xhr.response as KgCreatedResponse;
        onUploaded(body.kg);
        close(false);
      } else setState({ phase: "error", message: describeUploadError(xhr.response, xhr.status) });
    };
    xhr.onerror = () => setState({ phase: "error", message: "Network error while uploading." });
    xhr.ontimeout = () => setState({ phase: "error", message: "The upload timed out." });
    setState({ phase: "uploading", percent: 0 });
    xhr.send(form);
  };

  const busy = state.phase === "uploading" || state.phase === "loading";
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="upload-dialog">
        <DialogHeader>
          <DialogTitle>Upload RDF</DialogTitle>
          <DialogDescription>Turtle, N-Triples, N-Quads, TriG or RDF/XML. The graph is private to this browser session.</DialogDescription>
        </DialogHeader>
        <label className="flex flex-col gap-1 text-sm">
          Files
          <input
            type="file"
            multiple
            accept={UPLOAD_EXTENSIONS.join(",")}
            data-testid="upload-files"
            className="text-sm file:mr-2 file:rounded file:border file:bg-card file:px-2 file:py-1"
            onChange={(e) => setFiles([...(e.target.files ?? [])])}
            disabled={busy}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Name (optional)
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder={files[0]?.name ?? "My graph"} disabled={busy} />
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" checked={entail} onChange={(e) => setEntail(e.target.checked)} disabled={busy} data-testid="upload-entailment" className="mt-1" />
          <span>
            RDFS entailment
            <span className="block text-xs text-muted-foreground">
              Also add what the graph&apos;s own rdfs:subClassOf, rdfs:subPropertyOf and owl:inverseOf statements imply (kept in the graph
              urn:x-chatty-kg:entailed, so answers can say they rest on it).
            </span>
          </span>
        </label>
        {state.phase === "uploading" && (
          <div className="flex items-center gap-2 text-xs">
            <Progress value={state.percent} aria-label="Upload progress" />
            <span className="tabular-nums">{state.percent}%</span>
          </div>
        )}
        {state.phase === "loading" && <p className="text-sm text-muted-foreground">Uploaded; loading the graph…</p>}
        {state.phase === "error" && (
          <p role="alert" data-testid="upload-error" className="rounded border border-destructive/50 bg-destructive/5 p-2 text-sm text-destructive">
            {state.message}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button onClick={upload} disabled={files.length === 0 || busy} data-testid="upload-submit">
            Upload
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
