// Tooltip (radix-ui): a short label on hover or keyboard focus; wrap the app once in TooltipProvider.
"use client";
import * as React from "react";
import { Tooltip as TooltipPrimitive } from "radix-ui";
import { cn } from "@/lib/utils";

export const TooltipProvider = TooltipPrimitive.Provider;

export function Tooltip({ label, children, className }: { label: React.ReactNode; children: React.ReactNode; className?: string }) {
  return (
    <TooltipPrimitive.Root>
      {/* focus opens it only when the browser shows focus (keyboard): not when a closing dialog hands focus back to its
          button after a click, which left "Upload RDF files…" standing over the page */}
      <TooltipPrimitive.Trigger asChild onFocus={(e) => !e.currentTarget.matches(":focus-visible") && e.preventDefault()}>
        {children}
      </TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={4}
          className={cn("z-50 max-w-xs rounded-md bg-foreground px-2 py-1 text-xs text-background shadow", className)}
        >
          {label}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
