import { describe, expect, it } from "vitest";
import { createOracleLog } from "./oracle-grounding";
import { createOneCallOracle, promptSources } from "./oracle-one-call";

const PROMPT = `Solved questions of this KG (their queries worked):
Example 1 (similarity 0.80). Question: Which record label released Paper Skies?
\`\`\`sparql
PREFIX t: <http://example.org/tunes/id/> PREFIX tv: <http://example.org/tunes/vocab#> SELECT ?label WHERE { t:album-paper-skies tv:recordLabel ?label }
\`\`\`

Schema cards:
PREFIX tv: <http://example.org/tunes/vocab#>

Class tv:Album "album" (23 instances)
  tv:recordLabel → tv:RecordLabel e.g. <http://example.org/tunes/id/label-Lumen-Lane>
  tv:rating → xsd:decimal e.g. "7.8"^^xsd:decimal

Entities whose names match words of the question:
- <http://example.org/tunes/id/album-glass-harbour> "Glass Harbour" (for "Glass Harbour")

Question: Which record label released Glass Harbour?`;

const ask = (gold: string, prompt = PROMPT) => {
  const log = createOracleLog("question-grounded");
  const reply = createOneCallOracle(gold, log)({ role: "one-call", messages: [{ role: "user", text: prompt }], tools: [] } as never) as { text: string };
  return { text: reply.text, log };
};

describe("the one-call oracle (question-grounded)", () => {
  it("reads the IRIs a prompt shows, compact names expanded with its PREFIX lines", () => {
    const { iris, texts } = promptSources(PROMPT);
    expect(iris).toContain("http://example.org/tunes/vocab#recordLabel");
    expect(iris).toContain("http://example.org/tunes/id/album-glass-harbour");
    expect(iris).toContain("http://example.org/tunes/id/album-paper-skies");
    expect(texts).toContain("Glass Harbour");
  });

  it("writes the gold when the prompt shows all its constants", () => {
    const { text, log } = ask("SELECT ?l WHERE { <http://example.org/tunes/id/album-glass-harbour> <http://example.org/tunes/vocab#recordLabel> ?l }");
    expect(text).toContain("<http://example.org/tunes/id/album-glass-harbour> <http://example.org/tunes/vocab#recordLabel> ?l");
    expect(text).not.toContain("# oracle");
    expect(log.dropped).toEqual([]);
  });

  it("makes every constant the prompt and question do not show a variable, and says so", () => {
    const { text, log } = ask('SELECT ?l WHERE { ?a <http://example.org/tunes/vocab#catalogNumber> "LL-0117" ; <http://example.org/tunes/vocab#recordLabel> ?l }');
    expect(text).toMatch(/# oracle: not in the prompt, made variables: iri http:\/\/example\.org\/tunes\/vocab#catalogNumber; literal LL-0117/);
    expect(text).toMatch(/\?oracleMissing1 \?oracleMissing2/);
    expect(log.dropped).toHaveLength(2);
  });
});
