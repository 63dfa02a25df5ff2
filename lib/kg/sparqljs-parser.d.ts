// sparqljs' generated parser module, which lib/kg/sparql-syntax.ts patches (it ships no types of its own).
declare module "sparqljs/lib/SparqlParser.js" {
  const SparqlParser: { Parser: { prototype: unknown } };
  export default SparqlParser;
}
