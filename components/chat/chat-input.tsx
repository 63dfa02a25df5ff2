// The question box: Enter sends, Shift+Enter adds a line; while a turn runs the Send button becomes Stop. Near the
// server's limit a counter shows; past it Send is refused with a sentence and the text stays, to be shortened.
"use client";
import { useEffect, useRef, useState } from "react";
import { SendHorizontalIcon, SquareIcon } from "lucide-react";
import { QUESTION_MAX_CHARS } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { useInsertText, withInserted } from "@/components/insert-text";
import { cn } from "@/lib/utils";

/** From this many characters on the counter shows (80 % of the limit). */
export const COUNTER_FROM = Math.floor(QUESTION_MAX_CHARS * 0.8);

export function ChatInput({
  running,
  disabled,
  disabledReason,
  fill,
  onSend,
  onStop,
}: {
  running: boolean;
  disabled?: boolean;
  disabledReason?: string | null;
  fill?: { text: string; n: number } | null;
  onSend: (q: string) => void;
  onStop: () => void;
}) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  // "put into the question box" from the KG overview and elsewhere
  useInsertText("question", (t, mode) => {
    setText((current) => withInserted(current, t, mode));
    box.current?.focus();
  });
  useEffect(() => {
    if (!fill) return;
    setText(fill.text);
    box.current?.focus();
  }, [fill]);
  const length = text.trim().length;
  const over = length > QUESTION_MAX_CHARS;
  const submit = () => {
    const q = text.trim();
    if (!q || running || disabled || over) return;
    onSend(q);
    setText("");
  };
  return (
    <form
      className="flex flex-col gap-1 border-t bg-background p-2 sm:p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-end gap-2">
        <label htmlFor="question" className="sr-only">
          Your question
        </label>
        <Textarea
          ref={box}
          id="question"
          data-testid="question-input"
          rows={2}
          placeholder="Ask the knowledge graph…  (Enter sends, Shift+Enter adds a line)"
          title="Press / anywhere to come back to this box"
          value={text}
          aria-invalid={over}
          aria-describedby="question-help"
          className="aria-[invalid=true]:border-destructive"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {running ? (
          <Button type="button" variant="outline" onClick={onStop} data-testid="stop-button">
            <SquareIcon /> Stop
          </Button>
        ) : (
          <Button type="submit" disabled={!text.trim() || disabled || over} data-testid="send-button">
            <SendHorizontalIcon /> Send
          </Button>
        )}
      </div>
      <div id="question-help" aria-live="polite" className="flex min-h-0 items-start justify-between gap-2 text-xs">
        {over ? (
          <p className="text-destructive" data-testid="question-too-long">
            Too long to send: the limit is {QUESTION_MAX_CHARS.toLocaleString("en")} characters. Shorten it by {(length - QUESTION_MAX_CHARS).toLocaleString("en")}; your text stays here.
          </p>
        ) : disabled && disabledReason ? (
          <p className="text-muted-foreground" data-testid="send-disabled-reason">
            {disabledReason}
          </p>
        ) : (
          <span />
        )}
        {length >= COUNTER_FROM && (
          <span className={cn("shrink-0 tabular-nums", over ? "font-medium text-destructive" : "text-muted-foreground")} data-testid="question-counter">
            {length.toLocaleString("en")} / {QUESTION_MAX_CHARS.toLocaleString("en")}
          </span>
        )}
      </div>
    </form>
  );
}
