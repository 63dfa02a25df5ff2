// Text input and textarea with the app's border, focus ring and disabled styles.
import * as React from "react";
import { cn } from "@/lib/utils";

const fieldClass =
  "w-full min-w-0 rounded-md border bg-card px-3 py-1.5 text-sm shadow-xs outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50";

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input data-slot="input" className={cn(fieldClass, "h-9", className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={cn(fieldClass, "min-h-16 resize-none", className)} {...props} />;
}
