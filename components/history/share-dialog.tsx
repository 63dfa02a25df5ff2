// Share one conversation read-only: make a link (signed, for anyone who has it), copy it, or stop sharing (the link then
// stops working). Only that conversation is shown to whoever opens it, never the rest of the history.
"use client";
import { useEffect, useState } from "react";
import { Link2Icon, Link2OffIcon } from "lucide-react";
import type { ActionResult, ConversationSummaryDto, ShareLinkDto } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { CopyButton } from "@/components/chat/copy-button";
import { ErrorNote } from "@/components/chat/error-note";
import type { HistoryActions } from "./history-actions";

type State = { phase: "loading" } | { phase: "ready"; link: ShareLinkDto } | { phase: "error"; code: string; message: string };

export function ShareDialog({ conversation, actions, onClose }: { conversation: ConversationSummaryDto | null; actions: HistoryActions; onClose: () => void }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [busy, setBusy] = useState(false);
  const id = conversation?.id;
  const apply = (res: ActionResult<ShareLinkDto> | undefined) => {
    if (!res) setState({ phase: "error", code: "bad_request", message: "Sharing is not available here." });
    else if (res.ok) setState({ phase: "ready", link: res.data });
    else setState({ phase: "error", code: res.error.code, message: res.error.message });
  };
  useEffect(() => {
    if (!id) return;
    setState({ phase: "loading" });
    void actions.getShareLink?.({ conversationId: id }).then(apply);
  }, [id, actions]);
  const run = async (fn: HistoryActions["createShareLink"]) => {
    if (!id || !fn) return;
    setBusy(true);
    apply(await fn({ conversationId: id }));
    setBusy(false);
  };
  const url = state.phase === "ready" && state.link.path ? `${window.location.origin}${state.link.path}` : null;
  return (
    <Dialog open={conversation !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>Share “{conversation?.title}”</DialogTitle>
          <DialogDescription>
            Anyone with the link sees this conversation read-only: its questions, answers, SPARQL and derivations. They do not see your
            other conversations and cannot ask anything in it. Stop sharing at any time and the link stops working.
          </DialogDescription>
        </DialogHeader>
        {state.phase === "loading" && <p className="text-sm text-muted-foreground">Checking for a link…</p>}
        {state.phase === "error" && <ErrorNote error={{ code: state.code, message: state.message }} />}
        {state.phase === "ready" && state.link.off && (
          <p className="rounded border bg-muted p-2 text-sm" data-testid="share-off">
            {state.link.off}
          </p>
        )}
        {state.phase === "ready" && !state.link.off && url && (
          <div className="flex items-center gap-1">
            <Input readOnly value={url} aria-label="Share link" data-testid="share-url" onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
            <CopyButton text={url} label="Copy the link" className="h-9 px-2">
              Copy
            </CopyButton>
          </div>
        )}
        {state.phase === "ready" && !state.link.off && !url && <p className="text-sm text-muted-foreground">This conversation is not shared.</p>}
        <DialogFooter>
          {state.phase === "ready" && !state.link.off && (url ? (
            <Button variant="outline" onClick={() => void run(actions.revokeShareLink)} disabled={busy} data-testid="share-revoke">
              <Link2OffIcon /> Stop sharing
            </Button>
          ) : (
            <Button onClick={() => void run(actions.createShareLink)} disabled={busy} data-testid="share-create">
              <Link2Icon /> Create a read-only link
            </Button>
          ))}
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
