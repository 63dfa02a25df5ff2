// The header: on a desktop one row with the settings everyone needs (config strip), Evaluation, Export and the theme;
// on a phone one short row (history, the KG in use, Settings, derivation) with the rest in a settings sheet.
"use client";
import type { Ref } from "react";
import Link from "next/link";
import { BarChart3Icon, ChevronDownIcon, HistoryIcon, ListTreeIcon, Settings2Icon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { ConfigStrip, type ConfigStripProps } from "@/components/config/config-strip";
import { ExportMenu } from "@/components/config/export-menu";
import { ThemeToggle } from "@/components/config/theme-toggle";
import { useOnboardingProgress } from "@/components/onboarding/onboarding-client";
import { OnboardingMark, onboardingMarkLabel } from "@/components/onboarding/onboarding-mark";

export interface ChatHeaderProps {
  strip: Omit<ConfigStripProps, "variant">;
  conversationId: string | null;
  kgName: string | undefined;
  /** the strategy in use (the phone's chip names it with the KG) */
  strategyLabel?: string;
  drawer: "history" | "derivation" | null;
  onToggleDrawer: (which: "history" | "derivation") => void;
  historyToggle: Ref<HTMLButtonElement>;
  derivationToggle: Ref<HTMLButtonElement>;
  settingsOpen: boolean;
  onSettingsOpenChange: (open: boolean) => void;
}

export function ChatHeader({ strip, conversationId, kgName, strategyLabel, drawer, onToggleDrawer, historyToggle, derivationToggle, settingsOpen, onSettingsOpenChange }: ChatHeaderProps) {
  // the phone shows whether the KG in use is being prepared beside its name (the Overview entry is in the sheet)
  const onboarding = useOnboardingProgress(strip.selectedKgId);
  return (
    <header className="flex shrink-0 items-center gap-x-3 gap-y-2 border-b px-2 py-1.5 md:flex-wrap md:px-3 md:py-2" data-testid="chat-header">
      <div className="flex shrink-0 items-center gap-1">
        <Button
          ref={historyToggle}
          size="icon"
          variant="ghost"
          className="size-8 lg:hidden"
          aria-label="Conversations"
          aria-expanded={drawer === "history"}
          data-testid="open-history"
          onClick={() => onToggleDrawer("history")}
        >
          <HistoryIcon />
        </Button>
        <h1 className="text-base font-semibold tracking-tight md:text-lg">Chatty-KG</h1>
      </div>
      {/* desktop: the settings in one row */}
      <div className="hidden min-w-0 flex-1 md:block">
        <ConfigStrip {...strip} variant="bar" />
      </div>
      {/* phone: the KG in use, and Settings for the rest */}
      <button
        type="button"
        className="flex min-w-0 flex-1 items-center gap-1 rounded-md border bg-card px-2 py-1 text-left text-xs focus-visible:ring-2 focus-visible:ring-ring md:hidden"
        onClick={() => onSettingsOpenChange(true)}
        aria-label={`Knowledge graph: ${kgName ?? "loading"}${onboardingMarkLabel(onboarding)}${strategyLabel ? `, strategy: ${strategyLabel}` : ""}. Open the settings`}
      >
        <span className="min-w-0 truncate" data-testid="phone-kg">
          {kgName ?? "Loading…"}
        </span>
        <OnboardingMark progress={onboarding} />
        {strategyLabel && <span className="min-w-0 flex-1 truncate text-muted-foreground">· {strategyLabel}</span>}
        <ChevronDownIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      </button>
      <div className="flex shrink-0 items-center gap-0.5">
        <Button asChild size="sm" variant="ghost" data-testid="nav-eval" className="hidden md:inline-flex max-2xl:px-2">
          <Link href="/eval" aria-label="Evaluation" title="Evaluation">
            <BarChart3Icon /> <span className="max-2xl:hidden">Evaluation</span>
          </Link>
        </Button>
        <span className="hidden md:inline-flex">
          <ExportMenu conversationId={conversationId} compact />
        </span>
        <span className="hidden md:inline-flex">
          <ThemeToggle />
        </span>
        <Button size="icon" variant="ghost" className="size-8 md:hidden" aria-label="Settings" data-testid="open-settings" onClick={() => onSettingsOpenChange(true)}>
          <Settings2Icon />
        </Button>
        <Button
          ref={derivationToggle}
          size="icon"
          variant="ghost"
          className="size-8 lg:hidden"
          aria-label="Derivation"
          aria-expanded={drawer === "derivation"}
          data-testid="open-derivation"
          onClick={() => onToggleDrawer("derivation")}
        >
          <ListTreeIcon />
        </Button>
      </div>
      <Sheet open={settingsOpen} onOpenChange={onSettingsOpenChange}>
        <SheetContent data-testid="settings-sheet" aria-describedby="settings-description">
          <div className="pr-8">
            <SheetTitle className="text-lg font-semibold">Settings</SheetTitle>
            <SheetDescription id="settings-description" className="text-sm text-muted-foreground">
              They apply to your next question.
            </SheetDescription>
          </div>
          <ConfigStrip
            {...strip}
            variant="sheet"
            onUpload={() => {
              onSettingsOpenChange(false);
              strip.onUpload();
            }}
            onAddEndpoint={() => {
              onSettingsOpenChange(false);
              strip.onAddEndpoint();
            }}
            onOpenAdvanced={() => {
              onSettingsOpenChange(false);
              strip.onOpenAdvanced();
            }}
          />
          <div className="flex flex-wrap items-center gap-1 border-t pt-3">
            <Button asChild size="sm" variant="outline">
              <Link href="/eval">
                <BarChart3Icon /> Evaluation
              </Link>
            </Button>
            <ExportMenu conversationId={conversationId} />
            <ThemeToggle />
          </div>
        </SheetContent>
      </Sheet>
    </header>
  );
}
