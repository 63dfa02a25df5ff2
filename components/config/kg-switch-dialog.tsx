// Asked when the KG changes in a conversation that already has turns: start a new conversation with the new KG (the
// default: earlier answers came from another KG), or continue this one (the chat then marks where the KG changed).
"use client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

export function KgSwitchDialog({
  to,
  from,
  onNewConversation,
  onContinue,
  onCancel,
}: {
  /** the KG picked (null: no switch pending) */
  to: string | null;
  /** the KG the conversation's last turn used */
  from: string | undefined;
  onNewConversation: () => void;
  onContinue: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={to !== null} onOpenChange={(o) => !o && onCancel()}>
      <DialogContent data-testid="kg-switch-dialog">
        <DialogHeader>
          <DialogTitle>Ask “{to}” in a new conversation?</DialogTitle>
          <DialogDescription>
            This conversation&apos;s answers came from {from ? <>“{from}”</> : "another KG"}. Follow-up questions use earlier answers as
            context, which mean little in another KG. Start a new conversation, or continue here and the chat marks where the KG changed.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="flex-wrap">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="outline" onClick={onContinue} data-testid="kg-switch-continue">
            Continue this conversation
          </Button>
          <Button autoFocus onClick={onNewConversation} data-testid="kg-switch-new">
            New conversation
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
