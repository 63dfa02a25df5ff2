// Formats a query for people: one clause per line, indented groups, and IRIs written with prefixes (the query's own,
// then the KG's, then the well-known ones), each used prefix declared in a PREFIX line at the top.
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import { WELL_KNOWN_PREFIXES } from "@/lib/kg/well-known-prefixes";
import { codeOnly } from "./positions";

export interface Formatted {
  query: string;
  /** the query had # comments, which formatting cannot keep */
  droppedComments: boolean;
}

/** Prefixes to write IRIs with: the query's declarations win; a KG prefix naming a declared namespace is left out. */
export function mergePrefixes(declared: Record<string, string>, kg: Record<string, string>): Record<string, string> {
  const taken = new Set(Object.values(declared));
  const out: Record<string, string> = {};
  for (const [name, ns] of [...Object.entries(WELL_KNOWN_PREFIXES), ...Object.entries(kg)]) {
    if (!ns || taken.has(ns) || Object.hasOwn(declared, name)) continue;
    // the KG's own name for a namespace replaces a well-known name for it
    for (const [other, otherNs] of Object.entries(out)) if (otherNs === ns) delete out[other];
    out[name] = ns;
  }
  return { ...out, ...declared };
}

/** The query formatted (a syntax error or update throws the guard's AppError, with its position). */
export function formatQuery(query: string, kgPrefixes: Record<string, string>): Formatted {
  const parsed = parseReadOnly(query);
  const ast = parsed.ast;
  const prefixes = mergePrefixes(ast.prefixes ?? {}, kgPrefixes);
  // only the prefixes the query then uses get a PREFIX line (the generator marks them while writing)
  const text = stringifySparql({ ...ast, prefixes });
  return { query: layout(text), droppedComments: hasComment(query) };
}

function hasComment(query: string): boolean {
  return /#/.test(query.replace(/"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^<>\s"{}|^`\\]*>/g, " "));
}

/**
 * The generator's text with every group on its own lines (it writes short groups inline), `a` for rdf:type, and no
 * stray spaces before ")" or after DESC. Strings and IRIs are copied as they are.
 */
export function layout(text: string, indent = "  "): string {
  const code = codeOnly(text);
  let out = "";
  let depth = 0;
  let i = 0;
  const trimEnd = () => (out = out.replace(/[ \t]+$/, ""));
  while (i < text.length) {
    const c = code[i];
    if (c === "{") {
      depth++;
      out += `{\n${indent.repeat(depth)}`;
      i++;
      while (text[i] === " ") i++;
      if (text[i] === "\n") i++;
      while (text[i] === " ") i++;
      continue;
    }
    if (c === "}") {
      depth = Math.max(0, depth - 1);
      trimEnd();
      if (!out.endsWith("\n")) out += "\n";
      out = out.replace(/\n[ \t]*$/, `\n${indent.repeat(depth)}`);
      out += "}";
      i++;
      continue;
    }
    if (c === "\n") {
      let k = 0;
      i++;
      while (text[i] === " ") {
        i++;
        k++;
      }
      trimEnd();
      if (text[i] === "}") out += "\n";
      else out += `\n${indent.repeat(depth)}${" ".repeat(Math.max(0, k - indent.length * depth))}`;
      continue;
    }
    out += text[i];
    i++;
  }
  const tidy = codeOnly(out);
  // the fixes below look at code only: rebuild by positions so strings and IRIs stay untouched
  let result = "";
  let last = 0;
  for (const m of tidy.matchAll(/ +\)|\b(ASC|DESC) \(|(?<=[\w\]?$)-] )rdf:type(?= )/g)) {
    result += out.slice(last, m.index) + (m[1] ? `${m[1]}(` : m[0] === "rdf:type" ? "a" : ")");
    last = m.index + m[0].length;
  }
  result += out.slice(last);
  return dropUnusedPrefixes(result.replace(/\n{3,}/g, "\n\n").trim());
}

/** PREFIX lines whose prefix the body no longer uses (rdf: once rdf:type became `a`) are left out. */
function dropUnusedPrefixes(text: string): string {
  const lines = text.split("\n");
  const body = codeOnly(lines.filter((l) => !/^PREFIX /i.test(l)).join("\n"));
  return lines
    .filter((l) => {
      const name = /^PREFIX ([\w.-]*):/i.exec(l)?.[1];
      return name === undefined || new RegExp(`(^|[^\\w.-])${name.replace(/[.-]/g, "\\$&")}:`).test(body);
    })
    .join("\n");
}
