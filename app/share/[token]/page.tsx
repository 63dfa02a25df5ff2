// A read-only shared conversation: anyone with the signed link sees its turns, answers, SPARQL and derivations, and
// nothing else of the owner's (no history, no settings, no way to ask). A revoked or forged link, or a server that does
// not offer links, is a 404 page that says so.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { SharedConversation } from "@/components/share/shared-conversation";
import { getQueries } from "@/lib/db/queries";
import { isAppError } from "@/lib/errors";
import { STRATEGIES } from "@/lib/pipeline/registry";
import { toConversationDto } from "@/lib/server/export";
import { shareLinksOff, shareSecret, verifyShareToken } from "@/lib/server/share";

export const metadata: Metadata = { title: "Shared conversation · Chatty-KG", robots: { index: false, follow: false } };

export default async function SharePage({ params }: { params: Promise<{ token: string }> }) {
  await connection(); // per request: the link may have been revoked a moment ago
  const { token } = await params;
  if (shareLinksOff()) notFound();
  const id = verifyShareToken(decodeURIComponent(token), shareSecret());
  if (!id) notFound();
  let conversation;
  try {
    conversation = toConversationDto(await getQueries().getSharedConversation({ shareId: id }));
  } catch (e) {
    if (isAppError(e, "not_found")) notFound();
    throw e;
  }
  return <SharedConversation conversation={conversation} strategies={STRATEGIES.map((s) => ({ id: s.id, label: s.label }))} />;
}
