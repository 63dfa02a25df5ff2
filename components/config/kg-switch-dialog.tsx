// Asked when the KG changes in a conversation that already has turns: start a new conversation with the new KG (the
// default: earlier answers came from another KG), or continue this one (the chat then marks where the KG changed).
"use client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

export function KgSwitchDialog({
  to,
  from,
  onChoose,
}: {
  /** the KG picked (null: no switch pending) */
  to: string | null;
  /** the KG the conversation's last turn used */
  from: string | undefined;
  /** "new": a new conversation with the KG (the default); "continue": this one, the switch marked; "cancel": no switch */
  onChoose: (choice: "new" | "continue" | "cancel") => void;
}) {
  return (
    <Dialog open={to !== null} onOpenChange={(o) => !o && onChoose("cancel")}>
      <DialogContent data-testid="kg-switch-dialog">
        <DialogHeader>
          <DialogTitle>Ask “{to}” in a new conversation?</DialogTitle>
          <DialogDescription>
            This conversation&apos;s answers came from {from ? <>“{from}”</> : "another KG"}. Follow-up questions use earlier answers as
            context, which mean little in another KG. Start a new conversation, or continue here and the chat marks where the KG changed.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="flex-wrap">
          <Button variant="ghost" onClick={() => onChoose("cancel")}>
            Cancel
          </Button>
          <Button variant="outline" onClick={() => onChoose("continue")} data-testid="kg-switch-continue">
            Continue this conversation
          </Button>
          <Button autoFocus onClick={() => onChoose("new")} data-testid="kg-switch-new">
            New conversation
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
