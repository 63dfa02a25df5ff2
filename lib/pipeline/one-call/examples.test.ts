// Ranking generated examples by a person's question: the nouns it shares with an example decide, not the fixed wording
// of the template questions ("How many … do … have?"), plurals meet their singular, and the cue words read as a kind
// of query only where they are phrased as one ("order number" is no order, "the distinct colours" no count).
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { ExperienceExample } from "@/lib/pipeline/types";
import { questionShape } from "./example-shape";
import { contentTokens, rankExamples, withoutValues } from "./examples";

const P = "PREFIX sk: <http://example.org/skywatch/>\n";
const ex = (id: string, question: string, body: string): ExperienceExample => ({ id, question, sparql: `${P}${body}`, source: "generated" });
const COUNT = ex("count", "How many comets are there?", "SELECT (COUNT(?c) AS ?n) WHERE { ?c a sk:Comet }");
const COLOURS = ex("colours", "How many different tail colour values do the comets have?", "SELECT (COUNT(DISTINCT ?t) AS ?n) WHERE { ?c a sk:Comet ; sk:tail_colour ?t }");
const LIST_COLOURS = ex("list-colours", "List the tail colour of all comets.", "SELECT ?t WHERE { ?c a sk:Comet ; sk:tail_colour ?t }");
// other classes' counts, so that a pool's words have a spread of frequencies
const CLASS_COUNTS = ["Moon", "Planet", "Star", "Asteroid", "Galaxy", "Nebula"].map((c) => ex(c, `How many ${c.toLowerCase()}s are there?`, `SELECT (COUNT(?m) AS ?n) WHERE { ?m a sk:${c} }`));
const top = async (question: string, pool: ExperienceExample[]) => (await rankExamples(question, pool, createLexicalSimilarity(), 1))[0]?.id;

describe("the words that decide", () => {
  it("makes a plural singular the way a person writes it", () => {
    expect(contentTokens("the names of countries, classes and codes")).toEqual(["name", "country", "class", "code"]);
    expect(contentTokens("the name of every comet")).toEqual(contentTokens("the names of all comets"));
    // function words only: they are kept, so that something can still match
    expect(contentTokens("What are these?")).toEqual(["what", "are", "these"]);
  });

  it("does not let a template's wording outrank the example that shares the question's nouns", async () => {
    // "do … have" is the distinct-values template's wording, not what the person asks
    expect(await top("How many comets do we have?", [COLOURS, COUNT])).toBe("count");
    expect(await top("How many distinct tail colours are there?", [COUNT, COLOURS])).toBe("colours");
  });

  it("meets a plural in the question with the singular of the example", async () => {
    const pool = [
      ex("lookup", "What are the codes of the comets with tail colour Blue?", 'SELECT ?k WHERE { ?c a sk:Comet ; sk:tail_colour "Blue" ; sk:comet_code ?k }'),
      ex("pair", "List the name and code of every comet.", "SELECT ?n ?k WHERE { ?c a sk:Comet ; sk:name ?n ; sk:comet_code ?k }"),
    ];
    expect(await top("What are the names and codes of comets?", pool)).toBe("pair");
  });
});

describe("cue words phrased as what they ask", () => {
  it("reads 'order' as a noun apart from an order", async () => {
    expect(questionShape("List the order numbers of all comets.").has("order")).toBe(false);
    expect(questionShape("List the comets in alphabetical order.").has("order")).toBe(true);
    const pool = [
      ex("sorted", "List the order number of all comets in ascending order.", "SELECT ?o WHERE { ?c a sk:Comet ; sk:order_number ?o } ORDER BY ASC(?o)"),
      ex("plain", "List the order number of all comets.", "SELECT ?o WHERE { ?c a sk:Comet ; sk:order_number ?o }"),
    ];
    expect(await top("List the order numbers of all the comets.", pool)).toBe("plain");
  });

  it("prefers an example sorted by another column when the question names what to sort by", async () => {
    const pool = [
      ex("same", "List the name of all comets in ascending order.", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n } ORDER BY ASC(?n)"),
      ex("other", "List the name of all comets sorted by estimated mass.", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:estimated_mass ?m } ORDER BY ASC(?m)"),
    ];
    expect(await top("List the names of comets in ascending order of estimated mass.", pool)).toBe("other");
    expect(await top("List the names of all comets in ascending order.", pool)).toBe("same");
  });

  it("reads 'distinct' as a count of values only after a count", async () => {
    expect(questionShape("What are the distinct tail colours of the comets?").has("distinct")).toBe(false);
    expect(questionShape("How many distinct tail colours are there?").has("distinct")).toBe(true);
    expect(await top("What are the distinct tail colours of the comets?", [COLOURS, LIST_COLOURS])).toBe("list-colours");
  });

  it("reads 'the numbers of … for different …' as a count per group", () => {
    expect([...questionShape("What are the numbers of comets for different tail colours?")].sort()).toEqual(["count", "group"]);
  });
});

describe("more ways to put the same ask", () => {
  it("reads a negation written as a contraction or with 'except'", () => {
    expect(questionShape("Which comets don't have a tail?").has("negation")).toBe(true);
    expect(questionShape("List all comets except those seen twice.").has("negation")).toBe(true);
  });

  it("reads a descending order, and a sort key named after 'using'", async () => {
    expect(questionShape("List the comets sorted in descending order using mass.").has("sortKey")).toBe(true);
    expect(questionShape("List the names of all comets ordered by alphabetical order.").has("sortKey")).toBe(false);
    const pool = [
      ex("asc", "List the estimated mass of all comets in ascending order.", "SELECT ?m WHERE { ?c a sk:Comet ; sk:estimated_mass ?m } ORDER BY ASC(?m)"),
      ex("desc", "List the estimated mass of all comets, highest first.", "SELECT ?m WHERE { ?c a sk:Comet ; sk:estimated_mass ?m } ORDER BY DESC(?m)"),
    ];
    expect(await top("Show the estimated masses of all comets in descending order.", pool)).toBe("desc");
  });

  it("reads 'the maximum' of a thing as the thing at the top, and 'max' as 'highest'", async () => {
    const pool = [
      ex("agg", "What is the highest estimated mass of all comets?", "SELECT (MAX(?m) AS ?x) WHERE { ?c a sk:Comet ; sk:estimated_mass ?m }"),
      ex("top", "What is the name of the comet with the highest estimated mass?", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:estimated_mass ?m } ORDER BY DESC(?m) LIMIT 1"),
      ex("per", "How many comets are there for each tail colour?", "SELECT ?t (COUNT(?c) AS ?n) WHERE { ?c a sk:Comet ; sk:tail_colour ?t } GROUP BY ?t"),
      ex("most", "Which tail colour has the most comets?", "SELECT ?t WHERE { ?c a sk:Comet ; sk:tail_colour ?t } GROUP BY ?t ORDER BY DESC(COUNT(?c)) LIMIT 1"),
    ];
    expect(await top("Find the name of the comet that has the maximum estimated mass.", pool)).toBe("top");
    expect(await top("Find the max estimated mass of the comets.", pool)).toBe("agg");
    expect(await top("Show the tail colour with the greatest number of comets.", pool)).toBe("most");
  });

  it("prefers a constant of the kind the question names: a number or a name", async () => {
    const pool = [
      ex("by-number", "What is the tail colour of the comet whose catalogue number is 12?", "SELECT ?t WHERE { ?c a sk:Comet ; sk:catalogue_number 12 ; sk:tail_colour ?t }"),
      ex("by-name", "What is the tail colour of the comet whose name is Vela?", 'SELECT ?t WHERE { ?c a sk:Comet ; sk:name "Vela" ; sk:tail_colour ?t }'),
    ];
    expect(await top("What is the tail colour of Orla?", pool)).toBe("by-name");
    expect(await top("What is the tail colour of comet 40?", pool)).toBe("by-number");
    // a code that holds digits is no number
    expect(questionShape("Which comets are in f17-9aeb?").has("number")).toBe(false);
  });

  it("reads 'Show the number of …' as the count the templates ask with 'How many …'", async () => {
    const pool = [
      ex("count", "How many comets are there?", "SELECT (COUNT(?c) AS ?n) WHERE { ?c a sk:Comet }"),
      ex("listing", "List the catalogue number and name of every comet.", "SELECT ?k ?n WHERE { ?c a sk:Comet ; sk:catalogue_number ?k ; sk:name ?n }"),
    ];
    expect(await top("Show the number of comets.", pool)).toBe("count");
  });
});

describe("the KG's own words in the question", () => {
  it("reads the property of a dotted name ('Comet.tailColour') among the query's words", async () => {
    const pool = [
      ex("mass", "What is recorded for the comets?", "SELECT ?m WHERE { ?c a sk:Comet ; sk:Comet.estimatedMass ?m }"),
      ex("colour", "What is noted for the comets?", "SELECT ?t WHERE { ?c a sk:Comet ; sk:Comet.tailColour ?t }"),
    ];
    expect((await rankExamples("List the tail colour of comets.", pool, createLexicalSimilarity(), 1, { shapeWeight: 0, schemaWords: true }))[0]?.id).toBe("colour");
  });

  it("takes a capitalised word that names a column for the column, not for a value", async () => {
    const pool = [
      ex("lookup", "What is the tail colour of the comets with discoverer Vela?", 'SELECT ?t WHERE { ?c a sk:Comet ; sk:discoverer "Vela" ; sk:tail_colour ?t }'),
      ex("pair", "List the tail colour and discoverer of every comet.", "SELECT ?t ?d WHERE { ?c a sk:Comet ; sk:tail_colour ?t ; sk:discoverer ?d }"),
    ];
    expect(await top("Show all tail colours and Discoverers of comets.", pool)).toBe("pair");
    expect(await top("Show the tail colours of comets found by Orla.", pool)).toBe("lookup");
  });

  it("meets two words of the question in a name that runs them together", async () => {
    const pool = [
      ex("speed", "What is the average orbitspeed of the comets for each tailcolour?", "SELECT ?t (AVG(?s) AS ?a) WHERE { ?c a sk:Comet ; sk:orbitspeed ?s ; sk:tailcolour ?t } GROUP BY ?t"),
      ex("mass", "What is the average estimatedmass of the comets for each tailcolour?", "SELECT ?t (AVG(?m) AS ?a) WHERE { ?c a sk:Comet ; sk:estimatedmass ?m ; sk:tailcolour ?t } GROUP BY ?t"),
    ];
    expect(await top("What is the average estimated mass of comets per tail colour?", pool)).toBe("mass");
  });

  it("gives the last places to examples naming what the best ones leave out of the question", async () => {
    const colour = (n: number) => ex(`colour${n}`, `Which comets have tail colour Blue and tail length ${n}?`, `SELECT ?c WHERE { ?c a sk:Comet ; sk:tail_colour "Blue" ; sk:tail_length ${n} }`);
    // "group" is a common word of this KG (many classes have one): alone it scores below the colour lookups
    const other = (n: number) => ex(`other${n}`, `Which moons have group G${n}?`, `SELECT ?m WHERE { ?m a sk:Moon ; sk:group sk:g${n} }`);
    const group = ex("group", "Which comets have group North?", "SELECT ?c WHERE { ?c a sk:Comet ; sk:group sk:north }");
    const pool = [...[1, 2, 3, 4, 5, 6].map(colour), ...[1, 2, 3, 4, 5, 6, 7, 8].map(other), group];
    const rank = async (k: number) => (await rankExamples("Which comets with tail colour Blue are in a group?", pool, createLexicalSimilarity(), k)).map((e) => e.id);
    expect((await rank(pool.length)).indexOf("group")).toBeGreaterThanOrEqual(5);
    const top5 = await rank(5);
    expect(top5.slice(0, 3)).toEqual((await rank(pool.length)).slice(0, 3));
    expect(top5).toContain("group");
  });
});

describe("words written another way than the KG's names, values apart from nouns", () => {
  it("meets a name that shortens a word to its first letter ('last name' ↔ lname)", async () => {
    const pool = [
      ex("names", "What are the names of the astronomers with city Lyon?", 'SELECT ?n WHERE { ?a a sk:Astronomer ; sk:name ?n ; sk:city "Lyon" }'),
      ex("lname", "What is the lname of the astronomers whose rank is Senior?", 'SELECT ?l WHERE { ?a a sk:Astronomer ; sk:lname ?l ; sk:rank "Senior" }'),
    ];
    expect(await top("Show the last names of astronomers who are senior.", pool)).toBe("lname");
  });

  it("meets a word with its other endings ('player' ↔ plays, 'published' ↔ publisher, 'named' ↔ name)", async () => {
    expect(contentTokens("players playing played named published publisher")).toEqual(["play", "play", "play", "name", "publish", "publish"]);
    // function words stay function words ("having" is no content word "hav")
    expect(contentTokens("How many comets are we having?")).toEqual(["how", "many", "comet"]);
    const pool = [
      ex("size", "What is the crew size of Orla?", "SELECT ?c WHERE { sk:orla sk:crew_size ?c }"),
      ex("club", "What is the plays in club of Orla?", "SELECT ?c WHERE { sk:orla sk:plays_in_club ?c }"),
    ];
    expect(await top("Where is the player Orla?", pool)).toBe("club");
  });

  it("lets the nouns outweigh a value that an example merely shares", async () => {
    const pool = [
      ex("same-value", "What is the tail length of the comets with discoverer Vela?", 'SELECT ?l WHERE { ?c a sk:Comet ; sk:discoverer "Vela" ; sk:tail_length ?l }'),
      ex("other-value", "What is the tail colour of the comets with discoverer Orla?", 'SELECT ?t WHERE { ?c a sk:Comet ; sk:discoverer "Orla" ; sk:tail_colour ?t }'),
      // "colour" is a commoner word of this KG than the value "Vela"
      ...["Moon", "Planet", "Star"].map((c) => ex(`${c}-colour`, `List the colour of all ${c.toLowerCase()}s.`, `SELECT ?x WHERE { ?m a sk:${c} ; sk:colour ?x }`)),
      ...CLASS_COUNTS,
    ];
    expect(withoutValues("Show the tail colour of comets found by 'Vela' in 1986 and Orla.")).toBe("Show the tail colour of comets found by in and");
    expect(await top("Show the tail colour of comets with discoverer 'Vela'.", pool)).toBe("other-value");
  });

  it("does not let an example's own sample value win for words the question writes in lower case", async () => {
    const pool = [
      ex("same-value", "What is the position of the players who play for country Ivory Coast?", 'SELECT ?p WHERE { ?x a sk:Player ; sk:plays_for_country sk:Ivory_Coast ; sk:position ?p }'),
      ex("other-value", "What is the club of the players who play for country Ghana?", "SELECT ?c WHERE { ?x a sk:Player ; sk:plays_for_country sk:Ghana ; sk:plays_in_club ?c }"),
      // other examples whose sample values hold the same words
      ...["Gold Coast", "Amber Coast", "Ivory Bay"].map((v) => ex(v, `Which players have birthplace ${v}?`, `SELECT ?x WHERE { ?x a sk:Player ; sk:birthplace "${v}" }`)),
      ...CLASS_COUNTS,
    ];
    expect(await top("which club does a player from ivory coast play in?", pool)).toBe("other-value");
  });
});

describe("asks put in other words, and the cover of the last places", () => {
  it("reads 'with maximum …' without an article as the thing at the top", async () => {
    const pool = [
      ex("agg", "What is the highest estimated mass of all comets?", "SELECT (MAX(?m) AS ?x) WHERE { ?c a sk:Comet ; sk:estimated_mass ?m }"),
      ex("top", "What is the name of the comet with the highest estimated mass?", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:estimated_mass ?m } ORDER BY DESC(?m) LIMIT 1"),
    ];
    expect(await top("Show the comet with maximum estimated mass.", pool)).toBe("top");
  });

  it("reads 'tallest', 'longest', 'shortest' as the templates' 'highest' and 'lowest'", async () => {
    expect(contentTokens("the tallest, longest, heaviest, shortest, lightest comet")).toEqual(["highest", "highest", "highest", "lowest", "lowest", "comet"]);
    const pool = [
      ex("record", "List the name and record as longest of every comet.", "SELECT ?n ?r WHERE { ?c a sk:Comet ; sk:name ?n ; sk:record_as_longest ?r }"),
      ex("top", "What is the name of the comet with the highest tail length?", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:tail_length ?l } ORDER BY DESC(?l) LIMIT 1"),
    ];
    expect(await top("What is the name of the longest comet?", pool)).toBe("top");
  });

  it("meets a bound however it is worded ('below 30', 'under 30', 'lower than' ↔ 'less than')", async () => {
    expect(contentTokens("an age below 30, under 30, lower than 30, smaller than 30")).toEqual(["age", "less", "30", "less", "30", "less", "30", "less", "30"]);
    expect(contentTokens("above 30, over 30, higher than 30")).toEqual(["greater", "30", "greater", "30", "greater", "30"]);
    const pool = [
      ex("more", "What is the name of each comet with a tail length greater than 35?", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:tail_length ?l FILTER(?l > 35) }"),
      ex("less", "What is the name of each comet with a tail length less than 35?", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:tail_length ?l FILTER(?l < 35) }"),
    ];
    expect(await top("Which comet has a tail length below 30?", pool)).toBe("less");
  });

  it("reads 'no of' in a name as 'number of' ('the highest no of moons' ↔ 'the most moons')", async () => {
    expect(contentTokens("the highest no of moons")).toEqual(contentTokens("the most number of moons"));
    const pool = [
      ex("count-most", "Which star has the most planets?", "SELECT ?s WHERE { ?p a sk:Planet ; sk:star ?s } GROUP BY ?s ORDER BY DESC(COUNT(?p)) LIMIT 1"),
      ex("column-top", "What is the sname of the star with the highest no of planets?", "SELECT ?n WHERE { ?s a sk:Star ; sk:sname ?n ; sk:no_of_planets ?k } ORDER BY DESC(?k) LIMIT 1"),
    ];
    expect(await top("Find the star name of the star with the most number of planets.", pool)).toBe("column-top");
  });

  it("gives the last places only for the KG's names the best ones leave out, not for a word like 'all'", async () => {
    const lookup = (n: number) => ex(`lookup${n}`, `What is the tail colour of the comet whose code is C${n}?`, `SELECT ?t WHERE { ?c a sk:Comet ; sk:code "C${n}" ; sk:tail_colour ?t }`);
    const pool = [
      ...[1, 2, 3, 4].map(lookup),
      ex("target", "What is the tail colour of the comets that have a discoverer whose name is Orla?", 'SELECT ?t WHERE { ?c a sk:Comet ; sk:discoverer ?d ; sk:tail_colour ?t . ?d sk:name "Orla" }'),
      ex("all", "List the tail colour of all comets.", "SELECT ?t WHERE { ?c a sk:Comet ; sk:tail_colour ?t }"),
    ];
    const question = "Find all the tail colours of the comets found by 'Vela'.";
    const ranked = (await rankExamples(question, pool, createLexicalSimilarity(), pool.length)).map((e) => e.id);
    expect(ranked.indexOf("target")).toBe(4);
    expect(ranked.indexOf("all")).toBe(5);
    expect((await rankExamples(question, pool, createLexicalSimilarity(), 5)).map((e) => e.id)).toContain("target");
  });
});

describe("what a question asks for, read from its first noun", () => {
  it("prefers the example that opens on the question's first noun to one that only filters by it", async () => {
    const pool = [
      ex("code", "What is the code of the comets whose discoverer is Orla?", 'SELECT ?k WHERE { ?c a sk:Comet ; sk:discoverer "Orla" ; sk:code ?k }'),
      ex("discoverer", "What is the discoverer of the comets whose name is Halley Bright Nova?", 'SELECT ?d WHERE { ?c a sk:Comet ; sk:name "Halley Bright Nova" ; sk:discoverer ?d }'),
    ];
    // "Who" names nothing: the first noun after it does
    expect(await top("Who is the discoverer of Vela?", pool)).toBe("discoverer");
  });
});

describe("what an example asks about that the question does not", () => {
  it("prefers the example whose names the question covers to one that also asks about another column", async () => {
    const pool = [
      ex("other", "What is the comet status description of the comet statuses whose comet status code is done?", 'SELECT ?d WHERE { ?s a sk:CometStatus ; sk:comet_status_code "done" ; sk:comet_status_description ?d }'),
      ex("listing", "List the comet status code of all comet statuses.", "SELECT ?k WHERE { ?s a sk:CometStatus ; sk:comet_status_code ?k }"),
      ...CLASS_COUNTS,
    ];
    expect(await top("What comet status codes do we have?", pool)).toBe("listing");
    // the other column asked for: the example that names it
    expect(await top("What is the comet status description of status code done?", pool)).toBe("other");
  });
});
