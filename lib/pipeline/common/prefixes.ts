// Prefixes shared by the strategies that show a KG to a model: naming namespaces compactly, writing terms with them,
// and declaring the ones a model-written query uses but forgot to declare.
import { compactIri } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";

const EXAMPLE_CHARS = 60;

/** A term as it would be written in a query (shortened literals). */
export function showTerm(t: Term, prefixes: Record<string, string>): string {
  if (t.type === "uri") return compactIri(t.value, prefixes);
  if (t.type === "bnode") return `_:${t.value}`;
  const text = t.value.length > EXAMPLE_CHARS ? `${t.value.slice(0, EXAMPLE_CHARS - 1)}…` : t.value;
  const quoted = JSON.stringify(text);
  if (t["xml:lang"]) return `${quoted}@${t["xml:lang"]}`;
  if (t.datatype && !t.datatype.endsWith("#string")) return `${quoted}^^${compactIri(t.datatype, prefixes)}`;
  return quoted;
}

/** Namespace of an IRI: everything up to the last # or / (undefined when nothing or only the host precedes it, or nothing follows). */
export function namespaceOf(value: string): string | undefined {
  const cut = Math.max(value.lastIndexOf("#"), value.lastIndexOf("/"));
  return cut > value.indexOf("://") + 2 && cut < value.length - 1 ? value.slice(0, cut + 1) : undefined;
}

/**
 * The profile's prefixes plus a generated one for each namespace of the schema they do not cover, named after the
 * namespace's last path segment (".../ontology/" → "ont"), so the model sees and writes compact names.
 */
export function schemaPrefixes(iris: string[], known: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...known };
  const covered = (value: string) => !compactIri(value, out).startsWith("<");
  const names = new Set(Object.keys(out));
  for (const value of iris) {
    if (covered(value)) continue;
    const ns = namespaceOf(value);
    if (!ns || Object.values(out).includes(ns)) continue;
    const base = prefixBase(ns);
    let name = base;
    for (let i = 2; names.has(name); i++) name = `${base}${i}`;
    names.add(name);
    out[name] = ns;
  }
  return out;
}

/** ".../ontology/" → "ont", "https://schema.org/" → "schema" (host without www and TLD when there is no path). */
function prefixBase(ns: string): string {
  const url = ns.replace(/[#/]+$/, "");
  const afterHost = url.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, "");
  const segment = afterHost ? afterHost.split(/[/#:]/).pop() ?? "" : (/^[a-z][\w+.-]*:\/\/(?:www\.)?([^./]+)/i.exec(url)?.[1] ?? "");
  const letters = segment.toLowerCase().replace(/[^a-z]/g, "");
  return afterHost ? letters.slice(0, 3) || "ns" : letters.slice(0, 8) || "ns";
}

/** Declares the schema prefixes a query uses without declaring them (models often forget PREFIX lines). */
export function completePrefixes(query: string, prefixes: Record<string, string>): string {
  const declared = new Set([...query.matchAll(/PREFIX\s+([A-Za-z][\w.-]*)?:/gi)].map((m) => m[1] ?? ""));
  // strip strings and IRIs so "http:" inside them is not taken for a prefix
  const body = query.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|<[^<>\s]*>/g, " ");
  const missing = Object.entries(prefixes).filter(
    ([name, ns]) => ns && !declared.has(name) && new RegExp(`(^|[\\s(){},;./^|!])${name.replace(/[.-]/g, "\\$&")}:`).test(body),
  );
  return missing.length ? `${missing.map(([name, ns]) => `PREFIX ${name}: <${ns}>`).join("\n")}\n${query}` : query;
}

