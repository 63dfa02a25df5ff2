// How the registry describes and wraps a KG source: the stored specs of uploads and endpoints, an endpoint's URL as
// shown (no credentials), a profile from a preset name or JSON, a KG under the id its database row gave it.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { EndpointRequest } from "@/lib/api/contract";
import type { KgSpec } from "@/lib/kg/open-kg";
import { kgProfilePartialSchema, PROFILE_PRESETS, type KgProfilePartial } from "@/lib/kg/profile";
import type { KgInfo, KnowledgeGraph } from "@/lib/kg/types";

export const uploadSpecSchema = z.object({
  dir: z.string().regex(/^[A-Za-z0-9-]+$/),
  files: z.array(z.string().min(1)).min(1),
  entailment: z.enum(["none", "rdfs"]).optional(),
});
export const endpointSpecSchema = z.object({ url: z.string().min(1), profile: kgProfilePartialSchema.optional() });

/** An endpoint URL without credentials or query string (it may hold keys). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

/** Same KG under another id/name (an upload is loaded before its database row, and so its id, exists). */
export function withInfo(kg: KnowledgeGraph, patch: Partial<KgInfo>): KnowledgeGraph {
  return {
    get info() {
      return { ...kg.info, ...patch };
    },
    profile: kg.profile,
    query: (q, o) => kg.query(q, o),
    select: (q, o) => kg.select(q, o),
    ask: (q, o) => kg.ask(q, o),
    construct: (q, o) => kg.construct(q, o),
    searchLabels: (t, o) => kg.searchLabels(t, o),
    close: () => kg.close(),
  };
}

/** KG_DEFAULT_PROFILE: a preset name (e.g. "virtuoso") or a JSON profile object, applied to KG_DEFAULT. */
export function withDefaultProfile(spec: KgSpec, value: string | undefined): KgSpec {
  const text = value?.trim();
  if (!text) return spec;
  let profile: unknown = text;
  if (text.startsWith("{")) {
    try {
      profile = JSON.parse(text);
    } catch {
      throw new AppError("bad_request", "KG_DEFAULT_PROFILE is neither a preset name nor valid JSON.");
    }
  }
  try {
    return { ...spec, profile: profileFromRequest(profile as EndpointRequest["profile"]) };
  } catch (e) {
    throw new AppError("bad_request", `KG_DEFAULT_PROFILE: ${(e as Error).message}`);
  }
}

export function profileFromRequest(profile: EndpointRequest["profile"]): KgProfilePartial | undefined {
  if (profile === undefined) return undefined;
  if (typeof profile === "string") {
    const preset = PROFILE_PRESETS[profile];
    if (!preset) throw new AppError("bad_request", `Unknown profile "${profile}". Known: ${Object.keys(PROFILE_PRESETS).join(", ")}.`);
    return preset.profile;
  }
  const parsed = kgProfilePartialSchema.safeParse(profile);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `Invalid profile: ${issue?.path.join(".") || "profile"} ${issue?.message ?? "is invalid"}.`);
  }
  return parsed.data;
}

