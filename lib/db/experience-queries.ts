// The experience pool (solved questions a strategy borrows examples from): a user's "helpful" mark on a turn puts it
// in its KG's pool for that session; a benchmark's training items are imported for everyone.
import { z } from "zod";
import { sparqlListSchema } from "./json";
import type { ExperienceRecord } from "./records";
import { ownedTurn, parseColumn, parseInput, type QueryContext, type TurnRow } from "./rows";

const EXPERIENCE_TEXT_MAX = 20_000;
const experienceItemSchema = z.object({
  itemId: z.string().min(1).max(500),
  question: z.string().trim().min(1).max(EXPERIENCE_TEXT_MAX),
  sparql: z.string().trim().min(1).max(EXPERIENCE_TEXT_MAX),
});

/** The feedback and experience-pool queries bound to one client. */
export function experienceQueries({ db }: QueryContext) {
  /** +1 / -1 from the user; null clears it. */
  async function setFeedback(args: { sessionId: string; turnId: string; feedback: 1 | -1 | null }): Promise<void> {
    const feedback = parseInput(z.union([z.literal(1), z.literal(-1), z.null()]), args.feedback, "feedback");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    await db.turn.update({ where: { id: args.turnId }, data: { feedback } });
    await syncExperience(turn, feedback, args.sessionId);
  }

  /**
   * A turn marked helpful that the KG answered with one final query becomes a solved question of its KG's experience
   * pool (seen only by this session); taking the mark back removes it.
   */
  async function syncExperience(turn: TurnRow, feedback: 1 | -1 | null, sessionId: string): Promise<void> {
    const sparql = turn.sparql === null ? [] : parseColumn(sparqlListSchema, turn.sparql, "sparql", turn.id);
    const usable = feedback === 1 && turn.status === "done" && turn.source === "kg" && sparql.length === 1;
    if (!usable) {
      await db.experience.deleteMany({ where: { turnId: turn.id } });
      return;
    }
    const conversation = await db.conversation.findUniqueOrThrow({ where: { id: turn.conversationId }, select: { kgId: true } });
    const data = { kgKey: conversation.kgId, question: (turn.standaloneQuestion ?? turn.question).slice(0, EXPERIENCE_TEXT_MAX), sparql: sparql[0], source: "feedback", sessionId };
    await db.experience.upsert({ where: { turnId: turn.id }, create: { ...data, turnId: turn.id }, update: data });
  }

  /**
   * The experience pool of a KG as a session sees it: imported items, the examples its onboarding generated (when
   * `generated` is not false), and the answers this session marked helpful.
   */
  async function listExperience(args: { kgKey: string; sessionId?: string; limit?: number; generated?: boolean; imported?: boolean }): Promise<ExperienceRecord[]> {
    const sources = [...(args.imported === false ? [] : [{ source: "import" }]), ...(args.generated === false ? [] : [{ source: "generated" }]), ...(args.sessionId ? [{ source: "feedback", sessionId: args.sessionId }] : [])];
    const rows = await db.experience.findMany({
      where: { kgKey: args.kgKey, OR: sources },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: Math.min(Math.max(args.limit ?? 2000, 1), 10_000),
    });
    return rows.map(toExperienceRecord);
  }

  /** Imports a benchmark's items (question + gold SPARQL) into a KG's pool; an item imported again is replaced. */
  async function importExperience(args: { kgKey: string; dataset: string; split?: string; items: { itemId: string; question: string; sparql: string }[] }): Promise<{ imported: number }> {
    const kgKey = parseInput(z.string().min(1).max(5000), args.kgKey, "KG key");
    const dataset = parseInput(z.string().trim().min(1).max(200), args.dataset, "dataset");
    const split = args.split === undefined ? null : parseInput(z.string().trim().min(1).max(100), args.split, "split");
    const items = parseInput(z.array(experienceItemSchema).max(100_000), args.items, "items");
    for (const item of items) {
      const data = { question: item.question, sparql: item.sparql, source: "import", split, sessionId: null };
      await db.experience.upsert({ where: { kgKey_dataset_itemId: { kgKey, dataset, itemId: item.itemId } }, create: { ...data, kgKey, dataset, itemId: item.itemId }, update: data });
    }
    return { imported: items.length };
  }

  /** Removes imported items of a KG's pool (of one dataset, or all); answers marked helpful stay. */
  async function clearImportedExperience(args: { kgKey: string; dataset?: string }): Promise<number> {
    const { count } = await db.experience.deleteMany({ where: { kgKey: args.kgKey, source: "import", ...(args.dataset ? { dataset: args.dataset } : {}) } });
    return count;
  }

  return { setFeedback, listExperience, importExperience, clearImportedExperience };
}

function toExperienceRecord(row: {
  id: string;
  kgKey: string;
  question: string;
  sparql: string;
  source: string;
  dataset: string | null;
  itemId: string | null;
  split: string | null;
  createdAt: Date;
}): ExperienceRecord {
  return { ...row, source: row.source === "feedback" ? "feedback" : row.source === "generated" ? "generated" : "import" };
}
