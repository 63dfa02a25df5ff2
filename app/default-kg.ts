// What the home page says about the default knowledge graph, from KG_DEFAULT (never showing credentials in URLs).
// TODO(kg owner): when lib/kg grows a KG_DEFAULT parser, use it here instead of this display-only reading.
import path from "node:path";

export interface DefaultKgInfo {
  kind: "sample" | "files" | "endpoint";
  /** one line for the UI */
  label: string;
}

export function describeDefaultKg(value: string | undefined): DefaultKgInfo {
  const v = value?.trim();
  if (!v || v === "sample") return { kind: "sample", label: "Sample KG (kg/sample.ttl)" };
  if (/^https?:\/\//i.test(v)) {
    try {
      const u = new URL(v);
      // user:password@ and query strings may hold secrets
      return { kind: "endpoint", label: `SPARQL endpoint ${u.origin}${u.pathname}` };
    } catch {
      return { kind: "endpoint", label: "SPARQL endpoint (invalid URL in KG_DEFAULT)" };
    }
  }
  const files = v
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => path.basename(f));
  return { kind: "files", label: `RDF files: ${files.join(", ")}` };
}
