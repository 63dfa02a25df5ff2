// The right column (derivation and query tabs): on a desktop it can be resized by dragging or with the arrow keys on
// its edge (the width is remembered) and maximised over the chat; on narrow screens it is a drawer.
"use client";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { Maximize2Icon, Minimize2Icon, XIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";

const WIDTH_KEY = "chatty-kg:side-width:v1";
const MIN_WIDTH = 320;
const DEFAULT_WIDTH = 440;
const maxWidth = () => Math.max(MIN_WIDTH, Math.round(window.innerWidth * 0.7));
const clampWidth = (w: number) => Math.min(Math.max(Math.round(w), MIN_WIDTH), maxWidth());

export interface SidePanelProps {
  ref: RefObject<HTMLElement | null>;
  open: boolean;
  onClose: () => void;
  tab: "derivation" | "sparql";
  onTab: (tab: "derivation" | "sparql") => void;
  queryLabel: string;
  maximised: boolean;
  onMaximised: (m: boolean) => void;
  derivation: ReactNode;
  query: ReactNode;
}

export function SidePanel({ ref, open, onClose, tab, onTab, queryLabel, maximised, onMaximised, derivation, query }: SidePanelProps) {
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const drag = useRef<{ x: number; w: number } | null>(null);
  useEffect(() => {
    const stored = Number(window.localStorage.getItem(WIDTH_KEY));
    if (stored) setWidth(clampWidth(stored));
  }, []);
  const save = (w: number) => {
    const c = clampWidth(w);
    setWidth(c);
    window.localStorage.setItem(WIDTH_KEY, String(c));
  };
  return (
    <aside
      ref={ref}
      tabIndex={-1}
      aria-label="Answer derivation"
      data-testid="derivation-drawer"
      data-open={open || undefined}
      data-maximised={maximised || undefined}
      style={{ "--side-w": `${width}px` } as React.CSSProperties}
      className={cn(
        "relative flex shrink-0 flex-col border-l bg-background outline-none",
        maximised ? "lg:min-w-0 lg:flex-1" : "lg:w-(--side-w)",
        "max-lg:fixed max-lg:inset-y-0 max-lg:right-0 max-lg:z-40 max-lg:w-[min(440px,92vw)] max-lg:shadow-lg",
        open ? "max-lg:flex" : "max-lg:hidden",
      )}
      onKeyDown={(e) => e.key === "Escape" && onClose()}
    >
      {!maximised && (
        // the edge: drag to resize, or focus it and use the arrow keys (Home/End: narrowest/widest)
        <div
          role="separator"
          aria-orientation="vertical"
          aria-label="Resize the derivation panel"
          aria-valuenow={width}
          aria-valuemin={MIN_WIDTH}
          tabIndex={0}
          data-testid="side-resize"
          className="absolute inset-y-0 -left-1 z-10 hidden w-2 cursor-col-resize outline-none hover:bg-primary/20 focus-visible:bg-primary/30 lg:block"
          onPointerDown={(e) => {
            drag.current = { x: e.clientX, w: width };
            e.currentTarget.setPointerCapture(e.pointerId);
          }}
          onPointerMove={(e) => {
            if (drag.current) setWidth(clampWidth(drag.current.w + drag.current.x - e.clientX));
          }}
          onPointerUp={(e) => {
            if (drag.current) save(drag.current.w + drag.current.x - e.clientX);
            drag.current = null;
          }}
          onKeyDown={(e) => {
            const step = e.shiftKey ? 80 : 20;
            if (e.key === "ArrowLeft") save(width + step);
            else if (e.key === "ArrowRight") save(width - step);
            else if (e.key === "Home") save(MIN_WIDTH);
            else if (e.key === "End") save(maxWidth());
            else return;
            e.preventDefault();
          }}
        />
      )}
      <Tabs value={tab} onValueChange={(v) => onTab(v as "derivation" | "sparql")} className="flex min-h-0 flex-1 flex-col">
        <div className="flex items-center">
          <TabsList className="flex-1">
            <TabsTrigger value="derivation">Derivation</TabsTrigger>
            <TabsTrigger value="sparql">{queryLabel}</TabsTrigger>
          </TabsList>
          <Button
            size="icon"
            variant="ghost"
            className="hidden size-8 lg:inline-flex"
            aria-label={maximised ? "Back to the chat beside it" : "Maximise the panel"}
            aria-pressed={maximised}
            data-testid="side-maximise"
            onClick={() => onMaximised(!maximised)}
          >
            {maximised ? <Minimize2Icon /> : <Maximize2Icon />}
          </Button>
          <Button size="icon" variant="ghost" className="size-8 lg:hidden" aria-label="Close panel" onClick={onClose}>
            <XIcon />
          </Button>
        </div>
        <TabsContent value="derivation" className="overflow-y-auto">
          {derivation}
        </TabsContent>
        <TabsContent value="sparql" forceMount className="data-[state=inactive]:hidden">
          {query}
        </TabsContent>
      </Tabs>
    </aside>
  );
}
