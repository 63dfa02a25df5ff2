// A small labelled integer field that only reports values inside [min, max] (the pipeline schema's bounds).
"use client";
import { useEffect, useState } from "react";
import { Input } from "@/components/ui/input";

export function NumberField({ label, title, value, min, max, onChange }: { label: string; title: string; value: number; min: number; max: number; onChange: (v: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const n = Number(text);
  const valid = Number.isInteger(n) && n >= min && n <= max;
  return (
    <label className="flex items-center gap-1 text-xs" title={title}>
      <span className="text-muted-foreground">{label}</span>
      <Input
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={text}
        aria-invalid={!valid}
        aria-label={title}
        className="h-8 w-16 px-1.5 text-xs aria-[invalid=true]:border-destructive"
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (Number.isInteger(v) && v >= min && v <= max) onChange(v);
        }}
      />
    </label>
  );
}
