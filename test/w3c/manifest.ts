// Reads the W3C SPARQL 1.0/1.1 test manifests (../shared/data/w3c-sparql, see its SOURCE.md) into plain test records.
// The manifests are Turtle; oxigraph reads each into a graph named by its file, and one SPARQL query lists every entry
// of every manifest (some manifests are blank nodes, so the graph says where an entry comes from).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import oxigraph from "oxigraph";

/** Where the suites are: beside the repository, as every test that uses ../shared/data expects. */
export const W3C_ROOT = path.resolve(process.cwd(), "../shared/data/w3c-sparql");

const MF = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#";

export type W3cTestType =
  | "PositiveSyntaxTest"
  | "NegativeSyntaxTest"
  | "PositiveUpdateSyntaxTest"
  | "NegativeUpdateSyntaxTest"
  | "QueryEvaluationTest"
  | "CSVResultFormatTest"
  | "UpdateEvaluationTest"
  | "Other";

export interface W3cTest {
  /** `<folder>#<local name>`, e.g. `sparql11/aggregates#agg01` (stable across runs; the deviation lists use it) */
  id: string;
  /** the suite folder, e.g. `sparql11/aggregates` */
  folder: string;
  name: string;
  type: W3cTestType;
  approval?: string;
  /** the query (or update) file */
  query?: string;
  /** files merged into the default graph */
  data: string[];
  /** files loaded as named graphs, each under its own file URL */
  graphData: string[];
  /** the expected result file */
  result?: string;
  /** mf:requires features (local names) */
  requires: string[];
  /** mf:LaxCardinality (REDUCED): any number of duplicates between DISTINCT's and all */
  laxCardinality: boolean;
  /** uses an entailment regime or SERVICE data: the app runs neither (see the evaluation test) */
  entailment: boolean;
  service: boolean;
}

const TYPES: Record<string, W3cTestType> = {
  PositiveSyntaxTest: "PositiveSyntaxTest",
  PositiveSyntaxTest11: "PositiveSyntaxTest",
  NegativeSyntaxTest: "NegativeSyntaxTest",
  NegativeSyntaxTest11: "NegativeSyntaxTest",
  PositiveUpdateSyntaxTest11: "PositiveUpdateSyntaxTest",
  NegativeUpdateSyntaxTest11: "NegativeUpdateSyntaxTest",
  QueryEvaluationTest: "QueryEvaluationTest",
  CSVResultFormatTest: "CSVResultFormatTest",
  UpdateEvaluationTest: "UpdateEvaluationTest",
};

const LIST_QUERY = `
PREFIX mf: <${MF}>
PREFIX qt: <http://www.w3.org/2001/sw/DataAccess/tests/test-query#>
PREFIX ut: <http://www.w3.org/2009/sparql/tests/test-update#>
PREFIX dawgt: <http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#>
PREFIX sd: <http://www.w3.org/ns/sparql-service-description#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
SELECT ?manifest ?test ?type ?name ?approval ?action ?query ?data ?graphData ?result ?requires ?cardinality ?regime ?service WHERE {
  GRAPH ?manifest { ?list mf:entries/rdf:rest*/rdf:first ?test }
  ?test a ?type .
  OPTIONAL { ?test mf:name ?name }
  OPTIONAL { ?test dawgt:approval ?approval }
  OPTIONAL { ?test mf:result ?result }
  OPTIONAL { ?test mf:requires ?requires }
  OPTIONAL { ?test mf:resultCardinality ?cardinality }
  OPTIONAL { ?test mf:action ?action
    OPTIONAL { ?action qt:query ?query } OPTIONAL { ?action ut:request ?query }
    OPTIONAL { ?action qt:data ?data } OPTIONAL { ?action ut:data ?data }
    OPTIONAL { ?action qt:graphData ?graphData FILTER(isIRI(?graphData)) }
    OPTIONAL { ?action sd:entailmentRegime ?regime }
    OPTIONAL { ?action qt:serviceData ?service } }
}`;

const local = (iri: string) => iri.replace(/^.*[#/]/, "");
const filePath = (term: { termType: string; value: string } | undefined) =>
  term && term.termType === "NamedNode" && term.value.startsWith("file:") ? fileURLToPath(term.value) : undefined;

/** Every test of every manifest under `root`, sorted by folder. */
export function readW3cTests(root = W3C_ROOT): W3cTest[] {
  const store = new oxigraph.Store();
  for (const suite of ["sparql10", "sparql11"]) {
    const dir = path.join(root, suite);
    for (const f of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (!/(^|\/)manifest[^/]*\.ttl$/.test(f)) continue;
      const file = path.join(dir, f);
      const iri = pathToFileURL(file).href;
      store.load(fs.readFileSync(file, "utf8"), { format: "text/turtle", base_iri: iri, to_graph_name: oxigraph.namedNode(iri) });
    }
  }
  const byId = new Map<string, W3cTest>();
  for (const row of store.query(LIST_QUERY, { use_default_graph_as_union: true }) as Map<string, { termType: string; value: string }>[]) {
    const manifestFile = filePath(row.get("manifest"));
    if (!manifestFile) continue;
    const folder = path.relative(root, path.dirname(manifestFile)).split(path.sep).join("/");
    // one entry per test: manifests that include others (manifest-all.ttl) list no entries of their own
    const id = `${folder}#${local(row.get("test")!.value)}`;
    let test = byId.get(id);
    if (!test) {
      const type = TYPES[local(row.get("type")!.value)] ?? "Other";
      test = {
        id,
        folder,
        name: row.get("name")?.value ?? local(row.get("test")!.value),
        type,
        approval: row.get("approval") ? local(row.get("approval")!.value) : undefined,
        // a syntax test's action is the query file itself
        query: filePath(row.get("query")) ?? (type.includes("Syntax") ? filePath(row.get("action")) : undefined),
        data: [],
        graphData: [],
        result: filePath(row.get("result")),
        requires: [],
        laxCardinality: false,
        entailment: false,
        service: false,
      };
      byId.set(id, test);
    } else if (test.type === "Other") {
      const type = TYPES[local(row.get("type")!.value)];
      if (type) test.type = type;
    }
    const add = (list: string[], v: string | undefined) => v && !list.includes(v) && list.push(v);
    add(test.data, filePath(row.get("data")));
    add(test.graphData, filePath(row.get("graphData")));
    add(test.requires, row.get("requires") ? local(row.get("requires")!.value) : undefined);
    if (row.get("cardinality")?.value === `${MF}LaxCardinality`) test.laxCardinality = true;
    if (row.get("regime")) test.entailment = true;
    if (row.get("service")) test.service = true;
  }
  return [...byId.values()].sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
}
