// The KG's own schema as read from its triples: class and property hierarchies (rdfs:subClassOf, rdfs:subPropertyOf),
// rdfs:domain/range, owl:inverseOf, and enumerations (classes whose instances are a small fixed set of IRIs). Lookups
// follow chains, so a mention of a parent class or property reaches all of its descendants.

export interface SchemaFacts {
  subClassOf: [string, string][];
  subPropertyOf: [string, string][];
  inverseOf: [string, string][];
  domain: [string, string][];
  range: [string, string][];
  /** class → its members (a closed list: owl:oneOf, or few instances used only as values) */
  enumerations: [string, string[]][];
  /** a bounded query hit its LIMIT: some facts may be missing */
  truncated: boolean;
}

const push = (m: Map<string, Set<string>>, k: string, v: string) => {
  const s = m.get(k) ?? new Set<string>();
  s.add(v);
  m.set(k, s);
};

/** Everything reachable from `start` along `edges` (start excluded), breadth first, cycles safe. */
function reach(edges: Map<string, Set<string>>, start: string): string[] {
  const seen = new Set([start]);
  const out: string[] = [];
  const queue = [start];
  while (queue.length) {
    for (const next of edges.get(queue.shift() as string) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      out.push(next);
      queue.push(next);
    }
  }
  return out;
}

export class KgSchema {
  private readonly superClasses = new Map<string, Set<string>>();
  private readonly subClasses = new Map<string, Set<string>>();
  private readonly superProperties = new Map<string, Set<string>>();
  private readonly subProperties = new Map<string, Set<string>>();
  private readonly inverses = new Map<string, Set<string>>();
  private readonly domains = new Map<string, Set<string>>();
  private readonly ranges = new Map<string, Set<string>>();
  private readonly members: Map<string, string[]>;
  private readonly memberOf = new Map<string, string>();

  constructor(readonly facts: SchemaFacts) {
    for (const [c, d] of facts.subClassOf) {
      if (c === d) continue;
      push(this.superClasses, c, d);
      push(this.subClasses, d, c);
    }
    for (const [p, q] of facts.subPropertyOf) {
      if (p === q) continue;
      push(this.superProperties, p, q);
      push(this.subProperties, q, p);
    }
    // owl:inverseOf is symmetric
    for (const [p, q] of facts.inverseOf) {
      push(this.inverses, p, q);
      push(this.inverses, q, p);
    }
    for (const [p, c] of facts.domain) push(this.domains, p, c);
    for (const [p, c] of facts.range) push(this.ranges, p, c);
    this.members = new Map(facts.enumerations);
    for (const [c, list] of facts.enumerations) for (const m of list) this.memberOf.set(m, c);
  }

  /** Direct subclasses, or (transitive) every class below. */
  childrenOfClass(c: string, opts: { transitive?: boolean } = {}): string[] {
    return opts.transitive ? reach(this.subClasses, c) : [...(this.subClasses.get(c) ?? [])];
  }

  parentsOfClass(c: string, opts: { transitive?: boolean } = {}): string[] {
    return opts.transitive ? reach(this.superClasses, c) : [...(this.superClasses.get(c) ?? [])];
  }

  /** Direct sub-properties, or (transitive) every property below. */
  childrenOfProperty(p: string, opts: { transitive?: boolean } = {}): string[] {
    return opts.transitive ? reach(this.subProperties, p) : [...(this.subProperties.get(p) ?? [])];
  }

  parentsOfProperty(p: string, opts: { transitive?: boolean } = {}): string[] {
    return opts.transitive ? reach(this.superProperties, p) : [...(this.superProperties.get(p) ?? [])];
  }

  /** The class itself and every class below it: what "instances of c" means once the hierarchy is taken into account. */
  classWithDescendants(c: string): string[] {
    return [c, ...this.childrenOfClass(c, { transitive: true })];
  }

  /** The property itself and every property below it. */
  propertyWithDescendants(p: string): string[] {
    return [p, ...this.childrenOfProperty(p, { transitive: true })];
  }

  inverseOf(p: string): string[] {
    return [...(this.inverses.get(p) ?? [])];
  }

  /** Declared domains, inherited from parent properties when the property has none of its own. */
  domainOf(p: string): string[] {
    return this.inherited(this.domains, p);
  }

  rangeOf(p: string): string[] {
    return this.inherited(this.ranges, p);
  }

  private inherited(m: Map<string, Set<string>>, p: string): string[] {
    for (const q of [p, ...this.parentsOfProperty(p, { transitive: true })]) {
      const own = m.get(q);
      if (own?.size) return [...own];
    }
    return [];
  }

  /** Properties whose domain is the class or one of its ancestors (what its instances may have). */
  propertiesWithDomain(c: string): string[] {
    const classes = new Set([c, ...this.parentsOfClass(c, { transitive: true })]);
    return [...this.domains.entries()].filter(([, ds]) => [...ds].some((d) => classes.has(d))).map(([p]) => p);
  }

  /** The members of an enumeration class, or undefined when the class is not one. */
  enumeration(c: string): string[] | undefined {
    return this.members.get(c);
  }

  /** The enumeration class a member belongs to. */
  enumerationOf(member: string): string | undefined {
    return this.memberOf.get(member);
  }

  get enumerations(): string[] {
    return [...this.members.keys()];
  }

  get isEmpty(): boolean {
    const f = this.facts;
    return !f.subClassOf.length && !f.subPropertyOf.length && !f.inverseOf.length && !f.domain.length && !f.range.length && !f.enumerations.length;
  }
}
