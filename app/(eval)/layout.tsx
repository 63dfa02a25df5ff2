// Evaluation pages' frame: the app name (back to the chat), the section name and the theme toggle.
import type { ReactNode } from "react";
import Link from "next/link";
import { MessagesSquareIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ThemeToggle } from "@/components/config/theme-toggle";

export default function EvalLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex shrink-0 items-center gap-4 border-b px-3 py-2">
        <Link href="/" className="text-lg font-semibold tracking-tight">
          Chatty-KG
        </Link>
        <nav aria-label="Sections" className="flex items-center gap-1 text-sm">
          <Button asChild variant="ghost" size="sm">
            <Link href="/">
              <MessagesSquareIcon /> Chat
            </Link>
          </Button>
          <Button asChild variant="secondary" size="sm">
            <Link href="/eval" aria-current="page">
              Evaluation
            </Link>
          </Button>
        </nav>
        <div className="ml-auto">
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-6xl min-w-0 flex-1 flex-col gap-6 px-4 py-6">{children}</main>
    </div>
  );
}
