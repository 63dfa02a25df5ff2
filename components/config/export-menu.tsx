// Export menu: downloads the conversation as Markdown or JSON (the server sends them as attachments).
"use client";
import { DownloadIcon, FileJsonIcon, FileTextIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

/** `compact`: the label only on wide screens (the desktop header's icon row) */
export function ExportMenu({ conversationId, compact = false }: { conversationId: string | null; compact?: boolean }) {
  const href = (format: "md" | "json") => `/api/conversations/${encodeURIComponent(conversationId ?? "")}/export?format=${format}`;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="ghost" disabled={!conversationId} data-testid="export-menu" aria-label="Export" title="Export this conversation" className={compact ? "max-2xl:px-2" : undefined}>
          <DownloadIcon /> <span className={compact ? "max-2xl:hidden" : undefined}>Export</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem asChild>
          <a href={href("md")} download>
            <FileTextIcon /> Markdown
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <a href={href("json")} download>
            <FileJsonIcon /> JSON
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
