// `--llm oracle` for the one-call strategy (question-grounded ceiling, lib/eval/oracle-grounding.ts): plays the one
// generation call from the item's gold SPARQL, but may write only what the prompt (examples, schema cards, entities
// found, the question) or the validator's feedback shows. Every gold constant grounded nowhere — an IRI the prompt
// never names, a literal or number neither the question nor the prompt holds — becomes a fresh variable, and a
// comment in the query says which: what the pipeline did not surface is missing from the ceiling.
import type { SparqlQuery } from "sparqljs";
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage, Responder } from "@/lib/llm/testing/replies";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createOracleLog, groundConstant, isStandardIri, noteDropped, noteGrounded, noteStructure, type OracleLog, type QueryConstant } from "./oracle-grounding";
import { structuralLiterals } from "./oracle-structure";
import { dialogueTexts } from "./oracle-dialogue-texts";
import { groundQir } from "./oracle-grounded-qir";
import { createOracleResponder, fetchOracleFacts, goldPlanOf, oracleQir, withOracleLog, type OracleGateway } from "./oracle-llm";
import type { BenchmarkItem } from "./types";

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;
const NUMERIC_TYPES = /#(integer|decimal|double|float|int|long|short|nonNegativeInteger|positiveInteger)$/;

/** IRIs and quoted texts a prompt shows: <full IRIs>, and prefix:name expanded with the prompt's own PREFIX lines. */
export function promptSources(prompt: string): { iris: Set<string>; texts: string[] } {
  const prefixes = new Map([...prompt.matchAll(/PREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^<>\s]*)>/gi)].map((m) => [m[1] ?? "", m[2]]));
  const iris = new Set([...prompt.matchAll(/<([a-z][\w+.-]*:[^<>"{}|^`\\\s]+)>/gi)].map((m) => m[1]));
  const body = prompt.replace(/"(?:[^"\\]|\\.)*"|<[^<>\s]*>/g, " ");
  for (const m of body.matchAll(/(?<![\w.-])([A-Za-z][\w.-]*)?:([\w.%-]*[\w%-])/g)) {
    const ns = prefixes.get(m[1] ?? "");
    if (ns !== undefined) iris.add(ns + m[2]);
  }
  const texts = [...prompt.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  return { iris, texts };
}

/** The gold's constants: IRIs (the query language's own aside), literals and numbers, in order of appearance. */
function constantsOf(ast: SparqlQuery): { term: Node; constant: QueryConstant }[] {
  const out: { term: Node; constant: QueryConstant }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (v.termType === "NamedNode" && typeof v.value === "string") {
      if (!isStandardIri(v.value)) out.push({ term: v, constant: { kind: "iri", value: v.value } });
      return;
    }
    if (v.termType === "Literal" && typeof v.value === "string") {
      const dt = isObj(v.datatype) ? String(v.datatype.value) : "";
      out.push({ term: v, constant: NUMERIC_TYPES.test(dt) ? { kind: "number", value: v.value } : { kind: "literal", value: v.value } });
      return;
    }
    for (const [k, child] of Object.entries(v)) if (k !== "prefixes") walk(child);
  };
  walk(ast);
  return out;
}

const lastUser = (messages: PlainMessage[]) => [...messages].reverse().find((m) => m.role === "user")?.text ?? "";

/** The one-call role played from the gold under the question-grounded rules; `log` collects what it dropped. */
export function createOneCallOracle(goldSparql: string, log: OracleLog = createOracleLog("question-grounded")): Responder {
  return ({ messages }) => {
    const prompt = lastUser(messages);
    const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? "";
    const { iris, texts } = promptSources(prompt);
    let ast: SparqlQuery;
    try {
      ast = parseSparql(goldSparql);
    } catch {
      return { text: "```sparql\nASK { }\n```" };
    }
    const dropped: string[] = [];
    let n = 0;
    const structural = structuralLiterals(ast, question);
    for (const { term, constant } of constantsOf(ast)) {
      const reason = structural.get(term);
      if (reason) {
        noteStructure(log, reason, constant.value);
        continue;
      }
      const g = groundConstant(constant, { question, iris, texts });
      if (g) {
        noteGrounded(log, g);
        continue;
      }
      noteDropped(log, constant);
      dropped.push(`${constant.kind} ${constant.value}`);
      // the term becomes a fresh variable: the oracle could not have written it
      Object.assign(term, { termType: "Variable", value: `oracleMissing${++n}` });
      delete term.datatype;
      delete term.language;
    }
    const note = dropped.length ? `# oracle: not in the prompt, made variables: ${dropped.join("; ").replace(/\n/g, " ")}\n` : "";
    return { text: `\`\`\`sparql\n${note}${stringifySparql(ast)}\n\`\`\`` };
  };
}

/** A fresh scripted LLM for one item: the Chat agent as the grounded oracle plays it, the one call from the gold. */
export async function createOneCallOracleLlm(item: BenchmarkItem, kg: KnowledgeGraph, signal?: AbortSignal): Promise<OracleGateway> {
  const plan = goldPlanOf(item);
  const facts = await fetchOracleFacts(kg, plan, signal);
  const log = createOracleLog("question-grounded");
  const texts = dialogueTexts(item);
  // the Chat agent's QIR draft is grounded too (one-call does not read it, the tool call carries it)
  const grounding = groundQir(oracleQir(plan, facts), plan, facts, { text: texts.groundOn, language: texts.groundLanguage }, createOracleLog("question-grounded"));
  const others = createOracleResponder(item, facts, plan, { grounding, log });
  const oneCall = createOneCallOracle(item.goldSparql ?? "", log);
  const fallback: Responder = (request) => (request.role === "one-call" ? oneCall(request) : others(request));
  return withOracleLog(createScriptedLlm({}, { fallback }).gateway, log);
}
