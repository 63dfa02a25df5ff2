// Sheet: a dialog that slides in from a side (radix Dialog: focus kept inside, Esc and the overlay close it, focus
// returns to what opened it). Settings that only some people need live in sheets instead of the header.
"use client";
import * as React from "react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { XIcon } from "lucide-react";
import { cn } from "@/lib/utils";

export const Sheet = DialogPrimitive.Root;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

const SIDES = {
  right: "inset-y-0 right-0 h-full w-[min(28rem,100vw)] border-l",
  left: "inset-y-0 left-0 h-full w-[min(22rem,100vw)] border-r",
} as const;

export function SheetContent({
  side = "right",
  className,
  children,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & { side?: keyof typeof SIDES }) {
  // opened from state, not a DialogTrigger: remember what had focus and give it back on close (as dialog.tsx does)
  const returnTo = React.useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/40" />
      <DialogPrimitive.Content
        className={cn("fixed z-50 flex flex-col gap-3 overflow-y-auto bg-background p-4 shadow-lg outline-none", SIDES[side], className)}
        // focus the sheet itself, not its first field: opening it should not select a value to overwrite
        onOpenAutoFocus={(e) => {
          returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          e.preventDefault();
          (e.currentTarget as HTMLElement | null)?.focus();
        }}
        onCloseAutoFocus={(e) => {
          const el = returnTo.current;
          if (el?.isConnected && el.getClientRects().length > 0) {
            e.preventDefault();
            el.focus();
          }
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          className="absolute top-3 right-3 rounded-sm p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="Close"
        >
          <XIcon className="size-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
