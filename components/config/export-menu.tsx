// Export menu: downloads the conversation as Markdown or JSON (the server sends them as attachments).
"use client";
import { DownloadIcon, FileJsonIcon, FileTextIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";

export function ExportMenu({ conversationId }: { conversationId: string | null }) {
  const href = (format: "md" | "json") => `/api/conversations/${encodeURIComponent(conversationId ?? "")}/export?format=${format}`;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="ghost" disabled={!conversationId} data-testid="export-menu">
          <DownloadIcon /> Export
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
