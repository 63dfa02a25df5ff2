// A conversation this browser cannot open (another browser's or user's, or deleted): a page that says so and where to go.
import Link from "next/link";

export default function ConversationNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-4 p-6" data-testid="conversation-not-found">
      <h1 className="text-2xl font-semibold tracking-tight">This conversation is not yours to open</h1>
      <p className="text-muted-foreground">
        Conversations are kept per browser (or per signed-in user). This one belongs to someone else, or it was deleted. If its
        owner wants to show it to you, they can send you a read-only share link from their history.
      </p>
      <p className="text-xs text-muted-foreground">Details: not_found</p>
      <Link href="/" className="w-fit rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus-visible:ring-2 focus-visible:ring-ring">
        Start a new chat
      </Link>
    </main>
  );
}
