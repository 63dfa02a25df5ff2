// The left panel: new chat, a search box, and the session's conversations grouped by day, newest first, each with its
// KG and time (rename inline, delete with confirm).
"use client";
import { useState } from "react";
import Link from "next/link";
import { PlusIcon, SearchIcon } from "lucide-react";
import type { ApiError, ConversationSummaryDto } from "@/lib/api/contract";
import { ErrorNote } from "@/components/chat/error-note";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from "@/components/ui/dialog";
import { ConversationItem } from "./conversation-item";
import { groupByDay } from "./history-groups";
import type { HistoryActions } from "./history-actions";
import { ShareDialog } from "./share-dialog";

export interface HistoryPanelProps {
  conversations: ConversationSummaryDto[];
  activeId: string | null;
  /** KG names by id (a conversation names the KG it was started with) */
  kgNames?: ReadonlyMap<string, string>;
  search: string;
  /** the last failed history action (list, rename, delete), shown in words */
  error: ApiError | null;
  onSearch: (q: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
  /** the share-link actions (absent: no Share entry) */
  shareActions?: HistoryActions;
}

export function HistoryPanel({ conversations, activeId, kgNames, search, error, onSearch, onRename, onDelete, shareActions }: HistoryPanelProps) {
  const [toDelete, setToDelete] = useState<ConversationSummaryDto | null>(null);
  const [toShare, setToShare] = useState<ConversationSummaryDto | null>(null);
  const groups = groupByDay(conversations, (c) => c.updatedAt);
  return (
    <nav aria-label="Conversations" className="flex h-full min-h-0 flex-col gap-2 p-2" data-testid="history">
      <Button asChild variant="outline" className="justify-start">
        <Link href="/" data-testid="new-chat" title="New chat (Ctrl+Shift+O)">
          <PlusIcon /> New chat
          <kbd className="ml-auto text-[10px] font-normal text-muted-foreground max-lg:hidden">Ctrl⇧O</kbd>
        </Link>
      </Button>
      <div className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2 size-3.5 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          aria-label="Search conversations"
          placeholder="Search"
          className="h-8 pl-7"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>
      {error && <ErrorNote error={error} className="p-1.5 text-xs" />}
      <div className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto" data-testid="history-list">
        {groups.length === 0 && <p className="px-2 py-1 text-xs text-muted-foreground">{search ? "No match." : "No conversations yet."}</p>}
        {groups.map((g) => (
          <section key={g.label} aria-label={g.label} data-testid="history-day">
            <h3 className="px-2 pb-0.5 text-[11px] font-medium tracking-wide text-muted-foreground uppercase">{g.label}</h3>
            <ul className="flex flex-col gap-0.5">
              {g.items.map((c) => (
                <ConversationItem
                  key={c.id}
                  conversation={c}
                  kgName={kgNames?.get(c.kgId)}
                  active={c.id === activeId}
                  onRename={(title) => onRename(c.id, title)}
                  onDelete={() => setToDelete(c)}
                  onShare={shareActions?.getShareLink ? () => setToShare(c) : undefined}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
      {shareActions && <ShareDialog conversation={toShare} actions={shareActions} onClose={() => setToShare(null)} />}
      <AlertDialog open={toDelete !== null} onOpenChange={(o) => !o && setToDelete(null)}>
        <AlertDialogContent data-testid="delete-dialog">
          <AlertDialogTitle>Delete this conversation?</AlertDialogTitle>
          <AlertDialogDescription>
            &ldquo;{toDelete?.title}&rdquo; and all its turns and derivations will be deleted. This cannot be undone.
          </AlertDialogDescription>
          <div className="flex justify-end gap-2">
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              onClick={() => {
                if (toDelete) onDelete(toDelete.id);
                setToDelete(null);
              }}
            >
              Delete
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </nav>
  );
}
