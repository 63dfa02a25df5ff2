// One-line renderings of a QIR's constraints, for the stage summary, the derivation's QIR card and the CLI.
import type { Qir, QirComparison, QirValue } from "./state";

const shown = (v: QirValue) => (v.type === "string" ? JSON.stringify(v.text) : v.text);

function comparison(c: QirComparison): string {
  if (c.other) return `${c.variable} ${c.op} ${c.other}`;
  if (c.op === "between") return `${c.variable} between ${shown(c.values[0])} and ${shown(c.values[1])}`;
  if (c.op === "in") return `${c.variable} in (${c.values.map(shown).join(", ")})`;
  return `${c.variable} ${c.op} ${shown(c.values[0])}`;
}

/** Each constraint as a short phrase, in a fixed order ("?h is a hotel", "?s >= 4", "order by ?r desc", "limit 3"). */
export function describeConstraints(qir: Qir): string[] {
  const out: string[] = [];
  for (const v of qir.values ?? []) out.push(`${shown(v)} is a ${v.type} value`);
  for (const c of qir.classes ?? []) out.push(`${c.variable} is a ${c.mention}`);
  for (const c of qir.comparisons ?? []) out.push(comparison(c));
  if (qir.negated?.length) out.push(`not ${qir.negated.map((t) => `⟨${t.subject}, ${t.relation}, ${t.object}⟩`).join(" ")}`);
  if (qir.exclude) {
    const what = [...qir.exclude.entities.map((e) => JSON.stringify(e)), ...(qir.exclude.earlierAnswers ? ["earlier answers"] : [])];
    out.push(`${qir.exclude.variable} other than ${what.join(", ")}`);
  }
  if (qir.among) out.push(`${qir.among.variable} one of ${qir.among.entities.map((e) => JSON.stringify(e)).join(", ")}`);
  for (const a of qir.aggregates ?? []) out.push(`${a.alias} = ${a.fn}(${a.variable})`);
  if (qir.groupBy?.length) out.push(`per ${qir.groupBy.join(", ")}`);
  for (const o of qir.order ?? []) out.push(`order by ${o.count ? `count(${o.variable})` : o.variable} ${o.direction}`);
  if (qir.limit !== undefined) out.push(`limit ${qir.limit}`);
  if (qir.offset !== undefined) out.push(`offset ${qir.offset}`);
  if (qir.columns?.length) out.push(`show ${[qir.target, ...qir.columns].filter(Boolean).join(", ")}`);
  if (qir.compose) out.push("the query is written from the linked parts");
  return out;
}
