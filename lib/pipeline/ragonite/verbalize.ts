// KG verbalization (RAGONITE §2.2): one passage per subject from its facts, "X is a T. X has p Y. Y is p of X." (both
// directions), plus the facts that point at it ("Z has p X.", "Z is a X." for a class); long subjects are split into
// several passages, so the reverse direction of every fact is stated where its object is described.
import type { Term } from "@/lib/kg/types";
import { extremePassages } from "./extremes";
import { resourceKey, type KgFacts } from "./kg-facts";
import type { Triple } from "./kg-triples";

export interface Passage {
  /** "P1", "P2", … (stable for the same facts) */
  id: string;
  /** IRI (or "_:id") of the subject the passage is about */
  subject: string;
  /** its label */
  label: string;
  text: string;
  /** the facts the passage states (as triples) */
  facts: Triple[];
  /** 1-based part number when the subject's facts were split */
  part: number;
  /** "extremes": the lowest and highest values of a predicate in a group (for superlative questions) */
  kind?: "facts" | "extremes";
}

export interface VerbalizeOptions {
  /** characters per passage before a subject's facts continue in the next one */
  maxChars?: number;
  /** facts about other subjects pointing at this one that are included (a class or category hub may have millions) */
  maxIncoming?: number;
  /** characters of a literal value kept */
  maxValueChars?: number;
  /** add passages naming the members of a class (or of a group in it) with the lowest and highest value of each
   *  numeric or date predicate */
  extremes?: boolean;
}

const DEFAULTS: Required<VerbalizeOptions> = { maxChars: 1200, maxIncoming: 5000, maxValueChars: 300, extremes: true };

/**
 * "X has p Y. Y is p of X." for a predicate named by a noun ("price"); a predicate named by a verb phrase ("has
 * category", "is part of", "wrote") keeps its own verb: "X has category Y. Y is category of X.", "X wrote Y."
 */
export function factSentences(subject: string, predicate: string, object: string): string {
  const p = predicate.trim();
  const has = /^has\s+(.+)$/i.exec(p);
  if (has) return `${subject} has ${has[1]} ${object}. ${object} is ${has[1]} of ${subject}.`;
  if (/^(is|was|are|were)\s/i.test(p) || /(ed|s)\s+(by|in|of|to|for|with|at|on)$/i.test(p) || /^\w+(ed|s)$/i.test(p)) return `${subject} ${p} ${object}.`;
  return `${subject} has ${p} ${object}. ${object} is ${p} of ${subject}.`;
}

/** The incoming form of a fact, told from its object's side. */
function incomingSentence(subject: string, predicate: string, object: string): string {
  const p = predicate.trim();
  const has = /^has\s+(.+)$/i.exec(p);
  if (has) return `${subject} has ${has[1]} ${object}.`;
  if (/^(is|was|are|were)\s/i.test(p) || /(ed|s)\s+(by|in|of|to|for|with|at|on)$/i.test(p) || /^\w+(ed|s)$/i.test(p)) return `${subject} ${p} ${object}.`;
  return `${subject} has ${p} ${object}.`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Every subject's passages, in the order subjects were first read. */
export function verbalize(facts: KgFacts, options: VerbalizeOptions = {}): Passage[] {
  const o = { ...DEFAULTS, ...options };
  const name = (t: Term): string => {
    const key = resourceKey(t);
    return key ? facts.label(key) : clip(t.value, o.maxValueChars);
  };
  const out: Passage[] = [];
  for (const [subject, own] of facts.bySubject) {
    const label = facts.label(subject);
    const sentences: { text: string; fact: Triple }[] = [];
    // what the subject is, its single-valued links, its literals, then the rest: the first part of a long subject
    // holds what identifies it and its neighbours
    const count = new Map<string, number>();
    for (const t of own) count.set(t.p, (count.get(t.p) ?? 0) + 1);
    const order = (t: Triple) => (facts.typePredicates.has(t.p) ? 0 : t.o.type !== "literal" && count.get(t.p) === 1 ? 1 : t.o.type === "literal" ? 2 : 3);
    const sorted = own.map((t, i) => [order(t), i, t] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [, , t] of sorted) {
      const p = facts.label(t.p);
      if (facts.typePredicates.has(t.p) && t.o.type === "uri") {
        sentences.push({ text: `${label} is a ${facts.label(t.o.value)}.`, fact: t });
      } else if (facts.labelPredicates.has(t.p) && t.o.type === "literal") {
        // the main label names the subject everywhere; other labels (languages, aliases) are worth a sentence
        if (t.o.value.trim() !== label) sentences.push({ text: `${label} is also called ${clip(t.o.value, o.maxValueChars)}.`, fact: t });
      } else {
        sentences.push({ text: factSentences(label, p, name(t.o)), fact: t });
      }
    }
    for (const t of (facts.byObject.get(subject) ?? []).slice(0, o.maxIncoming)) {
      const from = resourceKey(t.s);
      if (!from || from === subject) continue;
      const text = facts.typePredicates.has(t.p) ? `${facts.label(from)} is a ${label}.` : incomingSentence(facts.label(from), facts.label(t.p), label);
      sentences.push({ text, fact: t });
    }
    if (sentences.length === 0) continue;
    let part = 1;
    let text = "";
    let stated: Triple[] = [];
    const flush = () => {
      out.push({ id: `P${out.length + 1}`, subject, label, text: text.trim(), facts: stated, part });
      part++;
      text = `${label} (continued):`;
      stated = [];
    };
    for (const s of sentences) {
      if (stated.length > 0 && text.length + s.text.length + 1 > o.maxChars) flush();
      text += (text ? " " : "") + s.text;
      stated.push(s.fact);
    }
    if (stated.length > 0) flush();
  }
  if (o.extremes) for (const e of extremePassages(facts)) out.push({ id: `P${out.length + 1}`, subject: e.subject, label: e.label, text: e.text, facts: e.facts, part: 1, kind: "extremes" });
  return out;
}
