// Questions for the generated queries. Offline (tests, `npm run eval`, no model configured): from templates over the
// frame's names, the KG's own words. With a model: written in batches from the query and the names it uses, and
// checked — a question must name every entity and value the query uses, in the KG's words (case, accents and
// inflection aside); a question that does not is replaced by the template's.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import { tokenize } from "@/lib/kg/label-index";
import { splitWords, stem } from "@/lib/kg/lexicon";
import type { LlmGateway } from "@/lib/llm/types";
import { renderPromptPair } from "@/lib/prompts";
import type { Candidate, Frame } from "./frames";

/** "department" → "departments", "city" → "cities", "box" → "boxes"; a name of several words pluralises its last. */
export function plural(name: string): string {
  const words = name.trim().split(/\s+/);
  const last = words.pop() ?? "";
  let p: string;
  // a class already named in the plural ("apartment_bookings") stays as it is
  if (/[^su']s$/i.test(last) && last.length > 3) p = last;
  else if (/[^aeiou]y$/i.test(last)) p = `${last.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(last)) p = `${last}es`;
  else if (/\p{Lu}{2,}$/u.test(last) || /\d$/.test(last)) p = `${last}s`;
  else p = `${last}s`;
  return [...words, p].join(" ");
}

const NOT_PLURAL = new Set(["news", "lens", "means", "physics", "mathematics", "economics", "politics", "athletics", "thanks"]);
/** A class named in the plural, as tables often are ("client bookings" → "client booking", "addresses" → "address"). */
export function singular(noun: string): string {
  const m = /^(.*?)(\p{Ll}+)$/u.exec(noun);
  if (!m) return noun;
  const [, head, last] = m;
  // words that end like a plural and are not one stay as they are
  if (/(eries|ecies)$/.test(last) || NOT_PLURAL.has(last)) return noun;
  if (last.length > 4 && last.endsWith("ies")) return `${head}${last.slice(0, -3)}y`;
  if (last.length > 4 && /(ss|x|z|ch|sh)es$/.test(last)) return `${head}${last.slice(0, -2)}`;
  if (last.length > 3 && last.endsWith("s") && !/(ss|us|is|as)$/.test(last)) return `${head}${last.slice(0, -1)}`;
  return noun;
}

/** Class and predicate names as running text: lower case unless an acronym or a proper name with capitals inside. */
function words(name: string | undefined, fallback: string): string {
  if (!name) return fallback;
  // "LoadArea" reads "load area", "ACLineSegment" "AC line segment": class names are often written as one word
  return splitWords(name)
    .split(/\s+/)
    .map((w) => (/^\p{Lu}[\p{Ll}\d]*$/u.test(w) ? w.toLowerCase() : w))
    .join(" ");
}

const PREPOSITIONS = "by|in|at|of|on|to|for|from|with|into|under|near|since|during|within|per|before|after|over|among|inside|via";
/** A predicate named as a relation ending in a preposition ("kept by", "located in"): "X is kept by Y". */
const RELATIONAL = new RegExp(`\\s(${PREPOSITIONS})$`, "i");
/** A predicate led by a preposition ("in period", "for team"): "X is in period Y"; its noun is what follows. */
const PREP_LED = new RegExp(`^(${PREPOSITIONS})\\s+(.+)$`, "i");

/** "a" or "an" by the sound of the next word ("an atomic mass", "a unit price", "an hour", "an XML file"). */
export function article(next: string): "a" | "an" {
  const w = next.trim().split(/\s+/)[0] ?? "";
  if (/^(hour|honest|honou?r|heir)/i.test(w)) return "an";
  if (/^(uni|use|usu|uti|eu|one|once|ur[aeiou])/i.test(w)) return "a";
  // an acronym read letter by letter: "an FM station", "a UN body"
  if (/^\p{Lu}{2,}$/u.test(w)) return /^[AEFHILMNORSX]/.test(w) ? "an" : "a";
  return /^[aeiou]/i.test(w) ? "an" : "a";
}
const withArticle = (noun: string) => `${article(noun)} ${noun}`;

const AGG: Record<NonNullable<Frame["agg"]>, string> = { avg: "average", max: "highest", min: "lowest", sum: "total" };

/**
 * How a predicate reads: a noun ("height"), a relation ending in a preposition ("kept by"), or one led by a preposition
 * ("in period": the relation "is in", the noun "period"). Only a noun can stand where the question names an attribute
 * ("the p of X", "for each p"); a relation reads as one ("which X are kept by Y") or the question is not asked.
 */
function predicateReading(p: string): { kind: "noun" } | { kind: "rel-end" } | { kind: "prep-led"; prep: string; noun: string } {
  const led = PREP_LED.exec(p);
  if (led) return { kind: "prep-led", prep: led[1].toLowerCase(), noun: led[2] };
  return RELATIONAL.test(p) ? { kind: "rel-end" } : { kind: "noun" };
}

/**
 * A relation ending in a preposition, as a verb phrase: "kept by" reads "is kept by" (a participle or a noun),
 * "flows into" reads "flows into" / "flow into" / "does … flow into" (a verb in the third person).
 */
function relation(p: string): { one: string; many: string; ask: (subject: string) => string } {
  const [first, ...rest] = p.split(" ");
  const tail = rest.join(" ");
  if (rest.length && /^\p{Ll}+[^su]s$/u.test(first) && !/(ss|us|is)$/.test(first)) {
    const base = /(sh|ch|x|z|ss)es$/.test(first) ? first.slice(0, -2) : first.slice(0, -1);
    return { one: p, many: `${base} ${tail}`, ask: (subject) => `does ${subject} ${base} ${tail}` };
  }
  return { one: `is ${p}`, many: `are ${p}`, ask: (subject) => `is ${subject} ${p}` };
}
const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** The kinds whose question uses the predicate as a noun (the attribute asked for, a sort key, a measure): it must read as one. */
const NOUN_KINDS = new Set<Frame["kind"]>(["join-compare", "join-compare-reverse", "link-compare", "set-both", "set-both-range", "set-none", "set-none-range", "link-filter", "link-aggregate", "link-list-two", "link-none", "link-none-value", "link-none-key", "link-both", "attribute-not-value", "pair-not-value", "count-either", "aggregate-with-value", "count-between", "numeric-between", "contains", "list-names", "list-attribute", "list-two", "list-ordered", "count-with-attribute", "count-distinct", "list-sorted-by", "above-average", "aggregates", "value-of-by-key", "numeric-filter", "date-filter", "count-filter", "superlative", "aggregate", "top-k", "compare", "attribute-with-value", "pair-top", "pair-sorted", "pair-list", "pair-with-value", "shared-value"]);
/** Kinds whose `p` is the link to `target` they go through (a two-hop lookup, a filter or count across the link). */
const BY_KEY_LINKS = new Set<Frame["kind"]>(["chain-by-key", "join-filter", "join-count"]);
/** The template question for a frame (deterministic); undefined when no template reads naturally for it. */
export function templateQuestion(f: Frame): string | undefined {
  // a class named in the plural, as tables often are, is one row in "each …", "the … with the highest …"
  const c = singular(words(f.cls, "thing"));
  const cs = f.cls ? plural(c) : "things";
  // a link named by the key it holds ("pupil id", "ref stuid", "dept code") reads as the thing it points to ("the pupil of …")
  const p = f.target && BY_KEY_LINKS.has(f.kind) && /(id|code)$/i.test(words(f.p, "").split(/\s+/).at(-1) ?? "") ? singular(words(f.target, "thing")) : words(f.p, "value");
  const q = words(f.q, "value");
  const who = f.names ? `names of the ${cs}` : cs;
  const high = f.dir !== "low";
  const pr = predicateReading(p);
  const qr = predicateReading(q);
  const pNoun = pr.kind === "noun";
  // the thing a relation points to, as a noun: "period" for "in period", the target class for "kept by"
  const target = f.target ? words(f.target, "thing") : undefined;
  const pObject = pr.kind === "prep-led" ? pr.noun : pr.kind === "rel-end" ? target : p;
  // a date reached by a relation ("lit on", "installed on"): "which lighthouses are lit on a date after …"
  if ((f.kind === "date-filter" || (f.kind === "count-filter" && /^\d{4}$/.test(f.n ?? ""))) && pr.kind === "rel-end") {
    const r = relation(p);
    const when = f.kind === "date-filter" ? `a date after ${f.n}` : `a date in ${f.n}`;
    if (f.kind === "count-filter") return `How many ${cs} ${r.many} ${when}?`;
    return f.names ? `What are the ${who} that ${r.many} ${when}?` : `Which ${cs} ${r.many} ${when}?`;
  }
  if (NOUN_KINDS.has(f.kind) && !pNoun) return undefined;
  if ((f.kind === "attribute-with-value" || f.kind === "chain-by-key" || f.kind === "aggregate-per-group" || f.kind.startsWith("pair-")) && qr.kind !== "noun") return undefined;
  if (f.key && predicateReading(words(f.key, "name")).kind !== "noun") return undefined;
  // the linked thing's attribute named with its class ("artist name"), unless the attribute already says it
  // "the room name of the rooms", not "rooms roomname": a column named after its class already says whose it is
  const tq = target && !q.toLowerCase().includes(stem(target.split(" ").at(-1) ?? "")) ? `${target} ${q}` : q;
  if (f.kind.startsWith("join-") && f.kind !== "join-filter" && f.kind !== "join-count" && qr.kind !== "noun") return undefined;
  // across a link row (the class `c`): the things at one end (`target`), picked by the other end (`other`) or by the row
  const ts = plural(words(f.target, "thing"));
  const via = withArticle(c);
  const byOther = `${via} with the ${words(f.other, "thing")} whose ${words(f.key, "name")} is ${f.value}`;
  switch (f.kind) {
    case "link-filter":
      return `What is the ${p} of the ${ts} that have ${byOther}?`;
    case "link-aggregate":
      return `What is the ${AGG[f.agg ?? "avg"]} ${p} of the ${ts} that have ${byOther}?`;
    case "link-list-two":
      return `List the ${p} of the ${ts} and the ${words(f.key, "name")} of the ${plural(words(f.other, "thing"))} linked to them by ${via}.`;
    case "link-none":
    case "link-none-key":
      return `What is the ${p} of the ${ts} that do not have any ${c}?`;
    case "link-none-value":
      return `What is the ${p} of the ${ts} that do not have any ${c} with ${words(f.key, "name")} ${f.value}?`;
    case "link-both":
      return `What is the ${p} of the ${ts} that have both ${via} with ${words(f.key, "name")} ${f.value} and ${via} with ${words(f.key, "name")} ${f.value2}?`;
    // set questions over one class's rows: a column's values shared by two kinds of rows, or except some rows'
    case "set-both":
      return `Which ${p} values are shared by ${cs} with ${words(f.key, "name")} ${f.value} and ${cs} with ${words(f.key, "name")} ${f.value2}?`;
    case "set-both-range":
      return `Which ${p} values have both ${cs} with ${withArticle(words(f.key, "value"))} greater than ${f.n} and ${cs} with ${withArticle(words(f.key, "value"))} less than ${f.n2}?`;
    case "set-none":
      return `List the ${p} of all ${cs} except those of the ${cs} with ${words(f.key, "name")} ${f.value}.`;
    case "set-none-range":
      return `List the ${p} of all ${cs} except those of the ${cs} with ${withArticle(words(f.key, "value"))} greater than ${f.n}.`;
    case "attribute-not-value":
      return `What is the ${p} of the ${cs} whose ${words(f.key, "name")} is not ${f.value}?`;
    case "count-either":
      return `How many ${cs} have ${p} ${f.value} or ${f.value2}?`;
    case "aggregate-with-value":
      return `What is the ${AGG[f.agg ?? "avg"]} ${p} of the ${cs} whose ${words(f.key, "name")} is ${f.value}?`;
    case "count-between":
      return `How many ${cs} have ${withArticle(p)} between ${f.n} and ${f.n2}?`;
    case "numeric-between":
      return `What is the ${words(f.key, "name")} of each ${c} with ${withArticle(p)} between ${f.n} and ${f.n2}?`;
    case "join-count-per-group":
      return `How many ${cs} are there for each ${tq}?`;
    case "join-group-most":
      return `Which ${tq} has the ${high ? "most" : "fewest"} ${cs}?`;
    case "join-group-having":
      return f.dir === "low" ? `Which ${plural(tq)} have at least ${f.n ?? "2"} ${cs}?` : `Which ${plural(tq)} have more than 1 ${c}?`;
    // a measure compared across a link: the linked row's (join-compare), the linking rows' (-reverse), through a link row
    case "join-compare":
      return target ? `What is the ${words(f.key, "name")} of each ${c} whose ${target} has ${withArticle(p)} ${high ? "greater" : "less"} than ${f.n}?` : undefined;
    case "join-compare-reverse":
      return target ? `What is the ${words(f.key, "name")} of the ${ts} that have ${via} with ${withArticle(p)} ${high ? "greater" : "less"} than ${f.n}?` : undefined;
    case "link-compare":
      return `What is the ${p} of the ${ts} that have ${via} with ${withArticle(words(f.other, "thing"))} whose ${words(f.key, "value")} is ${high ? "greater" : "less"} than ${f.n}?`;
    case "join-pair-having":
      return qr.kind === "noun" ? `What are the ${words(f.key, "name")} and ${q} of the ${ts} with ${f.dir === "low" ? `at least ${f.n ?? "2"} ${cs}` : `more than 1 ${c}`}?` : undefined;
    case "join-list-two":
      return `List the ${words(f.key, "name")}${f.also ? ` and ${words(f.also, "value")}` : ""} of each ${c} and its ${tq}.`;
    // counts per value of a column that refers to rows by key: asked as of any column
    case "key-count-per-group":
    case "key-group-most":
    case "key-group-having":
    case "key-count-distinct":
      return pNoun ? templateQuestion({ ...f, kind: f.kind.replace(/^key-/, "") as Frame["kind"] }) : undefined;
    // two columns (key, q) of a class's rows: of the top row by p, sorted by p, of every row, of the rows with a value
    case "pair-top":
      return `What are the ${words(f.key, "name")} and ${q} of the ${c} with the ${high ? "highest" : "lowest"} ${p}?`;
    case "pair-sorted":
      return `List the ${words(f.key, "name")} and ${q} of all ${cs} sorted by ${p}${f.dir === "high" ? ", highest first" : ""}.`;
    case "pair-list":
      return `List the ${words(f.key, "name")} and ${q} of all ${cs}.`;
    case "pair-not-value":
      return `What are the ${p} and ${q} of the ${cs} whose ${words(f.key, "name")} is not ${f.value}?`;
    case "pair-with-value":
      return `What are the ${words(f.key, "name")} and ${q} of the ${cs} whose ${p} is ${f.value}?`;
    // the linked row with the most rows referring to it, named by two of its columns
    case "join-pair-most":
      return qr.kind === "noun" ? `What are the ${words(f.key, "name")} and ${q} of the ${target ?? "thing"} with the most ${cs}?` : undefined;
    case "count-aggregate-per-group":
      return pNoun && qr.kind === "noun" ? `How many ${cs} are there for each ${q}, and what is their ${AGG[f.agg ?? "sum"]} ${p}?` : undefined;
    case "list":
      return `List all ${cs}.`;
    case "list-names":
      return `What are the ${p}s of all ${cs}?`;
    case "list-attribute":
      return `List the ${p} of all ${cs}.`;
    case "list-two":
      if (f.q) return `List the ${words(f.key, "name")}, ${p} and ${q} of every ${c}.`;
      return `List the ${words(f.key, "name")} and ${p} of every ${c}.`;
    case "list-ordered":
      return `List the ${p} of all ${cs} in ascending order.`;
    case "count":
      return `How many ${cs} are there?`;
    case "count-with-attribute":
      return `How many ${cs} have ${withArticle(p)}?`;
    case "count-with-value":
      return pNoun ? `How many ${cs} have ${p} ${f.value}?` : `How many ${cs} ${pr.kind === "rel-end" ? relation(p).many : `are ${p}`} ${f.value}?`;
    case "count-distinct":
      return `How many different ${p} values do the ${cs} have?`;
    case "attribute-with-value":
      return `What is the ${q} of the ${cs} with ${p} ${f.value}?`;
    case "list-sorted-by":
      if (f.q) return `List the ${words(f.key, "name")} and ${p} of all ${cs} sorted by ${p}${f.dir === "high" ? ", highest first" : ""}.`;
      return `List the ${words(f.key, "name")} of all ${cs} sorted by ${p}${f.dir === "high" ? ", highest first" : ""}.`;
    case "aggregate-per-group":
      return pObject && pr.kind !== "rel-end" ? `What is the ${AGG[f.agg ?? "avg"]} ${p} of the ${cs} for each ${q}?` : undefined;
    case "above-average":
      return f.names ? `What are the names of the ${cs} with ${withArticle(p)} ${high ? "above" : "below"} the average?` : `Which ${cs} have ${withArticle(p)} ${high ? "above" : "below"} the average?`;
    case "aggregates": {
      const names = (f.aggs ?? ["max", "min"]).map((a) => AGG[a]);
      return `What are the ${names.slice(0, -1).join(", ")} and ${names.at(-1)} ${p} of all ${cs}?`;
    }
    case "value-of":
      if (pr.kind === "prep-led") return undefined;
      return pr.kind === "rel-end" ? `What ${relation(p).ask(f.entity ?? "it")}?` : `What is the ${p} of ${f.entity}?`;
    case "value-of-by-key":
      if (f.q) return `What are the ${p} and ${q} of the ${c} whose ${words(f.key, "name")} is ${f.value}?`;
      return `What is the ${p} of the ${c} whose ${words(f.key, "name")} is ${f.value}?`;
    case "with-value":
      if (!pNoun) {
        const are = pr.kind === "rel-end" ? relation(p).many : `are ${p}`;
        return f.names ? `What are the ${who} that ${are} ${f.value}?` : `Which ${cs} ${are} ${f.value}?`;
      }
      return f.names ? `What are the ${who} with ${p} ${f.value}?` : `Which ${cs} have ${p} ${f.value}?`;
    case "numeric-filter":
      if (f.key && f.q) return `What are the ${words(f.key, "name")} and ${q} of the ${cs} with ${withArticle(p)} ${high ? "greater" : "less"} than ${f.n}?`;
      if (f.key) return `What is the ${words(f.key, "name")} of each ${c} with ${withArticle(p)} ${high ? "greater" : "less"} than ${f.n}?`;
      return f.names ? `What are the ${who} with ${withArticle(p)} greater than ${f.n}?` : `Which ${cs} have ${withArticle(p)} greater than ${f.n}?`;
    case "date-filter":
      return f.names ? `What are the ${who} with ${withArticle(p)} after ${f.n}?` : `Which ${cs} have ${withArticle(p)} after ${f.n}?`;
    case "count-filter":
      if (f.inclusive) return `How many ${cs} have ${withArticle(p)} of ${high ? "at least" : "at most"} ${f.n}?`;
      return /^\d{4}$/.test(f.n ?? "") ? `How many ${cs} have ${withArticle(p)} in ${f.n}?` : `How many ${cs} have ${withArticle(p)} ${high ? "greater" : "less"} than ${f.n}?`;
    case "superlative":
      if (f.key && f.q) return `What are the ${words(f.key, "name")}${f.also ? `, ${q} and ${words(f.also, "value")}` : ` and ${q}`} of the ${c} with the ${high ? "highest" : "lowest"} ${p}?`;
      if (f.key) return `What is the ${words(f.key, "name")} of the ${c} with the ${high ? "highest" : "lowest"} ${p}?`;
      return f.names ? `What is the name of the ${c} with the ${high ? "highest" : "lowest"} ${p}?` : `Which ${c} has the ${high ? "highest" : "lowest"} ${p}?`;
    case "aggregate":
      return `What is the ${AGG[f.agg ?? "avg"]} ${p} of all ${cs}?`;
    case "top-k":
      return `Which ${f.n ?? "5"} ${cs} have the ${high ? "highest" : "lowest"} ${p}, with their ${p}?`;
    case "count-per-group":
      if (pr.kind === "rel-end") return `How many ${cs} ${relation(p).many} each ${target ?? "thing"}?`;
      return pObject ? `How many ${cs} are there for each ${pObject}?` : undefined;
    case "group-most":
      if (pr.kind === "rel-end") {
        const r = relation(p);
        return r.one.startsWith("is ") ? `Which ${target ?? "thing"} are the most ${cs} ${p}?` : `Which ${target ?? "thing"} do the most ${cs} ${r.many}?`;
      }
      return pObject ? `Which ${pObject} has the ${high ? "most" : "fewest"} ${cs}?` : undefined;
    case "group-having": {
      // dir "low": the bound is included ("at least 2")
      const than = f.dir === "low" ? `at least ${f.n ?? "2"}` : `more than ${f.n ?? "1"}`;
      // a date read as a relation: "Which dates have more than 1 repairs done on?"
      if (pr.kind === "rel-end" && target === "date") return `Which dates have ${than} ${cs} ${p}?`;
      if (!pObject || pr.kind === "rel-end") return undefined;
      return pNoun ? `Which ${p} values are shared by ${than} ${cs}?` : `Which ${plural(pObject)} have ${than} ${cs}?`;
    }
    case "chain": {
      // the thing the entity points to, then what is asked of it
      // a relation names the linked thing by a clause: "the apiary that hive w02 is located in" (not "the apiary hive w02 is located in")
      const it = pr.kind === "noun" ? `the ${p} of ${f.entity}` : pr.kind === "prep-led" ? `the ${pr.noun} that ${f.entity} is ${pr.prep}` : `the ${target ?? "thing"} that ${f.entity} ${relation(p).one}`;
      if (qr.kind === "noun") return `What is the ${q} of ${it}?`;
      return qr.kind === "rel-end" ? `What ${relation(q).ask(it)}?` : undefined;
    }
    case "chain-by-key":
      if (pr.kind !== "noun") return undefined;
      return `What is the ${q} of the ${p} of the ${c} whose ${words(f.key, "name")} is ${f.value}?`;
    case "join-filter":
    case "join-count": {
      const whose = qr.kind === "noun" ? `whose ${q} is ${f.value}` : qr.kind === "rel-end" ? `that ${relation(q).one} ${f.value}` : `that is ${q} ${f.value}`;
      const rel = pr.kind === "noun" ? `have ${withArticle(p)} ${whose}` : pr.kind === "prep-led" ? `are ${pr.prep} ${withArticle(pr.noun)} ${whose}` : `${relation(p).many} ${withArticle(target ?? "thing")} ${whose}`;
      if (f.kind === "join-count") return `How many ${cs} ${rel}?`;
      if (f.key) return `What is the ${words(f.key, "name")} of each ${c} that ${rel.replace(/^have /, "has ").replace(/^are /, "is ")}?`;
      return f.names ? `What are the ${who} that ${rel.replace(/^have/, "have")}?` : `Which ${cs} ${rel}?`;
    }
    // what two entities' relations share
    case "shared-value":
      return qr.kind === "noun" ? `What are the ${plural(p)} of ${f.entity} that are also ${plural(q)} of ${f.entity2}?` : undefined;
    case "compare":
      return `Which has the ${high ? "higher" : "lower"} ${p}, ${f.entity} or ${f.entity2}?`;
    case "contains":
      if (f.q) return qr.kind === "noun" ? `What is the ${q} of the ${cs} whose ${p} contains "${f.value}"?` : undefined;
      return `Which ${p} of the ${cs} contains "${f.value}"?`;
    case "yes-no":
      if (pr.kind === "rel-end") return `${cap(relation(p).ask(f.entity ?? "it"))} ${f.value}?`;
      return pNoun ? `Is the ${p} of ${f.entity} ${f.value}?` : `Is ${f.entity} ${p} ${f.value}?`;
  }
}

const fold = (text: string) => tokenize(text).map(stem);

/** Does the question name each mention (all its words, in order of the KG's text, case/accents/inflection aside)? */
export function namesAll(question: string, mentions: string[]): { ok: true } | { ok: false; missing: string[] } {
  const have = fold(question);
  const joined = ` ${have.join(" ")} `;
  const missing = mentions.filter((m) => {
    const want = fold(m);
    if (want.length === 0) return !question.includes(m);
    return !joined.includes(` ${want.join(" ")} `) && !question.toLowerCase().includes(m.toLowerCase());
  });
  return missing.length ? { ok: false, missing } : { ok: true };
}

const replySchema = z.object({ questions: z.array(z.object({ id: z.number().int(), question: z.string().min(3).max(400) })) });

export interface Verbalized {
  question: string;
  verbalizer: "llm" | "template";
}

export const BATCH = 10;

/**
 * Questions for candidates; with a model, in batches of BATCH, each checked. A failing model call (or a question that
 * fails the check) falls back to the template; a cancelled job throws.
 */
export async function verbalize(candidates: Candidate[], options: { llm?: LlmGateway; kgName: string; signal?: AbortSignal; onBatch?: (done: number) => void }): Promise<Verbalized[]> {
  // the examples phase drops candidates without a template question; a stray one gets a plain request
  const out: Verbalized[] = candidates.map((c) => ({ question: templateQuestion(c.frame) ?? `Answer this query: ${c.frame.kind}`, verbalizer: "template" }));
  if (!options.llm) return out;
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH);
    const items = batch.map((c, j) => `${j + 1}. Query:\n${c.sparql}\nNames to use: ${c.mentions.length ? c.mentions.map((m) => JSON.stringify(m)).join(", ") : "(none)"}\nDraft: ${out[i + j].question}`).join("\n\n");
    const { system, prompt } = renderPromptPair("onboarding-questions", { kgName: options.kgName, items });
    try {
      const result = await options.llm.call({ role: "onboarding", system, prompt, schema: replySchema, signal: options.signal });
      if (result.ok) {
        for (const q of result.value.questions) {
          const j = q.id - 1;
          const c = batch[j];
          if (!c) continue;
          if (namesAll(q.question, c.mentions).ok) out[i + j] = { question: q.question.trim(), verbalizer: "llm" };
        }
      }
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted" || options.signal?.aborted) throw err;
      // the templates stand; the next batch tries again
    }
    options.onBatch?.(Math.min(candidates.length, i + BATCH));
  }
  return out;
}
