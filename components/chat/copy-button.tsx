// A small icon button that copies text to the clipboard and says so for a moment.
"use client";
import { useState } from "react";
import { CheckIcon, CopyIcon } from "lucide-react";
import { cn } from "@/lib/utils";

/** `text` may be a function, so large contents (a whole table as CSV) are built only when copied; `children` adds a visible label. */
export function CopyButton({ text, label = "Copy", className, children }: { text: string | (() => string); label?: string; className?: string; children?: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={copied ? "Copied" : label}
      title={copied ? "Copied" : label}
      className={cn(
        "inline-flex items-center justify-center gap-1 rounded text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring",
        children ? "h-6 px-1.5 text-xs" : "size-6",
        className,
      )}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
          setCopied(true);
          window.setTimeout(() => setCopied(false), 1200);
        } catch {
          setCopied(false); // clipboard refused (insecure context or permission): nothing to show
        }
      }}
    >
      {copied ? <CheckIcon className="size-3.5" aria-hidden /> : <CopyIcon className="size-3.5" aria-hidden />}
      {children}
    </button>
  );
}
