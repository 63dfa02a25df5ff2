// KG notes: a short text derived from the profile — where names are, which classes hold the main things, how IRIs are
// made, the forms of dates, numbers and units — that every strategy's prompt gets (the user may rewrite it). Only what
// the profile read from the KG goes in.
import { compactIri } from "@/lib/kg/profile";
import { NOTES_MAX_CHARS, type KgOnboardingProfile } from "./types";

const MAIN_CLASSES = 8;
const SHAPES = 4;

export function deriveNotes(p: KgOnboardingProfile): string {
  const show = (v: string) => compactIri(v, p.prefixes);
  const lines: string[] = [];
  const names = p.namingPredicates.filter((n) => n.role !== "id" && n.why !== "profile");
  const labels = p.namingPredicates.filter((n) => n.role === "label");
  const ids = p.namingPredicates.filter((n) => n.role === "id");
  const usedLabels = labels.filter((l) => [...p.classes.flatMap((c) => c.predicates), ...(p.untyped?.predicates ?? [])].some((q) => q.iri === l.iri));
  const nameParts: string[] = [];
  if (usedLabels.length) nameParts.push(`labels in ${usedLabels.map((n) => show(n.iri)).join(", ")}`);
  if (names.length) nameParts.push(`names in ${names.slice(0, 5).map((n) => show(n.iri)).join(", ")}`);
  if (ids.length) nameParts.push(`codes/ids in ${ids.slice(0, 4).map((n) => show(n.iri)).join(", ")}`);
  lines.push(nameParts.length ? `Names: ${nameParts.join("; ")}. Things without such a name are named by their IRI's local name.` : "Names: no label or name predicates; things are named by their IRI's local name (e.g. …/Some_Name is \"Some Name\").");

  const main = p.classes.slice(0, MAIN_CLASSES);
  if (main.length) {
    lines.push(`Main classes (instances): ${main.map((c) => `${show(c.iri)} (${c.count}${c.countSampled ? "+" : ""})`).join(", ")}${p.classes.length > MAIN_CLASSES ? `, and ${p.classes.length - MAIN_CLASSES} more` : ""}.`);
  } else lines.push("No classes (no rdf:type): things are told apart by the predicates they have.");
  if (p.untyped && p.untyped.predicates.length && main.length === 0) {
    lines.push(`Most used predicates: ${p.untyped.predicates.slice(0, 10).map((q) => show(q.iri)).join(", ")}.`);
  }
  const shapes = p.idShapes.filter((s) => s.count >= 2).slice(0, SHAPES);
  if (shapes.length) lines.push(`IRIs: ${shapes.map((s) => `${s.pattern}${s.opaque ? " (opaque: search by name, not by IRI words)" : ""}`).join("; ")}.`);
  const forms: string[] = [];
  if (p.literalForms.dateForms.length) forms.push(`dates ${p.literalForms.dateForms.slice(0, 3).map((d) => d.replace(/^http:\/\/www\.w3\.org\/2001\/XMLSchema#/, "xsd:")).join("; ")}`);
  const numeric = p.literalForms.datatypes.filter(([dt]) => /#(integer|decimal|double|float|int|long)$/.test(dt)).map(([dt]) => show(dt));
  if (numeric.length) forms.push(`numbers as ${numeric.slice(0, 3).join(", ")} (compare as numbers)`);
  if (p.literalForms.languages.length) forms.push(`language tags ${p.literalForms.languages.slice(0, 6).join(", ")}`);
  if (p.literalForms.units.length) forms.push(`units from predicate names: ${p.literalForms.units.slice(0, 6).join(", ")}`);
  if (forms.length) lines.push(`Values: ${forms.join("; ")}.`);
  const s = p.schema;
  const schemaParts = [
    s.subClassOf.length ? `${s.subClassOf.length} rdfs:subClassOf` : "",
    s.subPropertyOf.length ? `${s.subPropertyOf.length} rdfs:subPropertyOf` : "",
    s.domain.length || s.range.length ? `domains/ranges for ${new Set([...s.domain, ...s.range].map(([q]) => q)).size} properties` : "",
    s.inverseOf.length ? `${s.inverseOf.length} owl:inverseOf` : "",
  ].filter(Boolean);
  if (schemaParts.length) lines.push(`Own schema: ${schemaParts.join(", ")}.`);
  let text = lines.join("\n");
  if (text.length > NOTES_MAX_CHARS) text = `${text.slice(0, NOTES_MAX_CHARS - 1)}…`;
  return text;
}
