// The question box: Enter sends, Shift+Enter adds a line; while a turn runs the Send button becomes Stop.
"use client";
import { useState } from "react";
import { SendHorizontalIcon, SquareIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/input";
import { useInsertText, withInserted } from "@/components/insert-text";

export function ChatInput({ running, disabled, onSend, onStop }: { running: boolean; disabled?: boolean; onSend: (q: string) => void; onStop: () => void }) {
  const [text, setText] = useState("");
  // "put into the question box" from the KG overview and elsewhere
  useInsertText("question", (t, mode) => {
    setText((current) => withInserted(current, t, mode));
    document.getElementById("question")?.focus();
  });
  const submit = () => {
    const q = text.trim();
    if (!q || running || disabled) return;
    onSend(q);
    setText("");
  };
  return (
    <form
      className="flex items-end gap-2 border-t bg-background p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="question" className="sr-only">
        Your question
      </label>
      <Textarea
        id="question"
        data-testid="question-input"
        rows={2}
        placeholder="Ask the knowledge graph…  (Enter to send, Shift+Enter for a new line)"
        value={text}
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
        <Button type="submit" disabled={!text.trim() || disabled} data-testid="send-button">
          <SendHorizontalIcon /> Send
        </Button>
      )}
    </form>
  );
}
