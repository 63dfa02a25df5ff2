// "Upload RDF…": pick files, send them with XHR (for real upload progress), and show the server's error with file + line.
"use client";
import { useRef, useState } from "react";
import { UPLOAD_EXTENSIONS, type ApiErrorBody, type KgCreatedResponse, type KgListItem } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { errorSentence } from "@/lib/error-sentences";

const UPLOAD_TIMEOUT_MS = 10 * 60_000;

type UploadState =
  | { phase: "idle" }
  | { phase: "uploading"; percent: number }
  | { phase: "loading" }
  | { phase: "error"; what: string; message: string; code: string };

/** What an upload result says once the KG is loaded: "KG ‘x’ loaded: 12,034 triples from 3 files." */
export function describeUploaded(kg: Pick<KgListItem, "name" | "triples">, files: number): string {
  const triples = kg.triples === undefined ? "" : `: ${kg.triples.toLocaleString("en")} triple${kg.triples === 1 ? "" : "s"}`;
  return `KG ‘${kg.name}’ loaded${triples} from ${files} file${files === 1 ? "" : "s"}. It is the KG in use now.`;
}

/**
 * A failed upload: the sentence for its code, then the server's words, which name the file and position once (its
 * position is added only when the message does not say it already).
 */
export function describeUploadError(body: unknown, status: number): { what: string; message: string; code: string } {
  const err = (body as ApiErrorBody | null)?.error;
  if (!err) return { what: errorSentence(`http_${status}`).what, message: "The upload was not accepted.", code: `http_${status}` };
  const where = [err.where?.source, err.where?.line !== undefined ? `line ${err.where.line}` : null].filter(Boolean).join(", ");
  const named = err.where?.source ? err.message.includes(err.where.source) : true;
  const sentence = errorSentence(err.code);
  return { what: `${sentence.what} ${sentence.todo}`, message: where && !named ? `${where}: ${err.message}` : err.message, code: err.code };
}

export function UploadDialog({
  open,
  onOpenChange,
  onUploaded,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** the KG and how many files it came from */
  onUploaded: (kg: KgListItem, files: number) => void;
}) {
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
        onUploaded(body.kg, files.length);
        close(false);
      } else setState({ phase: "error", ...describeUploadError(xhr.response, xhr.status) });
    };
    xhr.onerror = () => setState({ phase: "error", what: "The upload did not reach the server.", message: "Check your connection and upload again.", code: "network" });
    xhr.ontimeout = () => setState({ phase: "error", what: "The upload took too long and was stopped.", message: "Try smaller files, or several uploads.", code: "timeout" });
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
          <div role="alert" data-testid="upload-error" className="flex flex-col gap-1 rounded border border-destructive/50 bg-destructive/5 p-2 text-sm">
            <p className="font-medium text-destructive">{state.what}</p>
            <p className="break-words">{state.message}</p>
            <p className="text-xs text-muted-foreground" data-testid="error-details">
              Details: {state.code}
            </p>
          </div>
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
