// A share link that does not open anything: revoked by its owner, mistyped, or on a server that does not offer links.
import Link from "next/link";

export default function ShareNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col justify-center gap-4 p-6" data-testid="share-not-found">
      <h1 className="text-2xl font-semibold tracking-tight">This share link does not work</h1>
      <p className="text-muted-foreground">
        Its owner stopped sharing the conversation, the link was copied incompletely, or this server does not offer share links.
        Ask whoever sent it for a new link.
      </p>
      <p className="text-xs text-muted-foreground">Details: not_found</p>
      <Link href="/" className="w-fit rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus-visible:ring-2 focus-visible:ring-ring">
        Start your own chat
      </Link>
    </main>
  );
}
