// The left panel: new chat, a search box, and the session's conversations newest first (rename inline, delete with confirm).
"use client";
import { useState } from "react";
import Link from "next/link";
import { PlusIcon, SearchIcon } from "lucide-react";
import type { ConversationSummaryDto } from "@/lib/api/contract";
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

export interface HistoryPanelProps {
  conversations: ConversationSummaryDto[];
  activeId: string | null;
  search: string;
  error: string | null;
  onSearch: (q: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
}

export function HistoryPanel({ conversations, activeId, search, error, onSearch, onRename, onDelete }: HistoryPanelProps) {
  const [toDelete, setToDelete] = useState<ConversationSummaryDto | null>(null);
  const sorted = [...conversations].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  return (
    <nav aria-label="Conversations" className="flex h-full min-h-0 flex-col gap-2 p-2" data-testid="history">
      <Button asChild variant="outline" className="justify-start">
        <Link href="/" data-testid="new-chat">
          <PlusIcon /> New chat
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
      {error && (
        <p role="alert" className="px-1 text-xs text-destructive">
          {error}
        </p>
      )}
      <ul className="flex min-h-0 flex-1 flex-col gap-0.5 overflow-y-auto" data-testid="history-list">
        {sorted.length === 0 && <li className="px-2 py-1 text-xs text-muted-foreground">{search ? "No match." : "No conversations yet."}</li>}
        {sorted.map((c) => (
          <ConversationItem
            key={c.id}
            conversation={c}
            active={c.id === activeId}
            onRename={(title) => onRename(c.id, title)}
            onDelete={() => setToDelete(c)}
          />
        ))}
      </ul>
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
