// One conversation in the history list: its title as a link with its KG and time under it, inline rename (Enter saves,
// Esc cancels), and delete.
"use client";
import { useState } from "react";
import Link from "next/link";
import { PencilIcon, Share2Icon, Trash2Icon } from "lucide-react";
import type { ConversationSummaryDto } from "@/lib/api/contract";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { shortTime } from "./history-groups";

export function ConversationItem({
  conversation,
  kgName,
  active,
  onRename,
  onDelete,
  onShare,
}: {
  /** opens the share dialog (absent: sharing is not offered here) */
  onShare?: () => void;
  conversation: ConversationSummaryDto;
  /** the KG's name (absent: it is no longer in the list, e.g. a removed endpoint; its id is shown) */
  kgName?: string;
  active: boolean;
  onRename: (title: string) => void;
  onDelete: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(conversation.title);

  if (editing) {
    return (
      <li className="px-1 py-0.5">
        <Input
          autoFocus
          aria-label="Conversation title"
          className="h-8"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              const title = draft.trim();
              if (title && title !== conversation.title) onRename(title);
              setEditing(false);
            } else if (e.key === "Escape") {
              e.preventDefault();
              setDraft(conversation.title);
              setEditing(false);
            }
          }}
          onBlur={() => {
            setDraft(conversation.title);
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li
      className={cn("group flex items-center rounded-md hover:bg-accent", active && "bg-accent text-accent-foreground")}
      data-testid="history-item"
    >
      <Link
        href={`/c/${conversation.id}`}
        aria-current={active ? "page" : undefined}
        className="flex min-w-0 flex-1 flex-col rounded-md px-2 py-1 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        title={conversation.title}
      >
        <span className="truncate">{conversation.title}</span>
        <span className="truncate text-[11px] text-muted-foreground" data-testid="history-item-meta">
          {kgName ?? conversation.kgId} · {shortTime(conversation.updatedAt)}
        </span>
      </Link>
      <span className="flex shrink-0 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100">
        <button
          type="button"
          aria-label={`Rename "${conversation.title}"`}
          className="rounded p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => {
            setDraft(conversation.title);
            setEditing(true);
          }}
        >
          <PencilIcon className="size-3.5" />
        </button>
        {onShare && (
          <button
            type="button"
            aria-label={`Share "${conversation.title}"`}
            className="rounded p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            onClick={onShare}
            data-testid="share-conversation"
          >
            <Share2Icon className="size-3.5" />
          </button>
        )}
        <button
          type="button"
          aria-label={`Delete "${conversation.title}"`}
          className="rounded p-1 text-muted-foreground hover:text-destructive focus-visible:ring-2 focus-visible:ring-ring"
          onClick={onDelete}
        >
          <Trash2Icon className="size-3.5" />
        </button>
      </span>
    </li>
  );
}
