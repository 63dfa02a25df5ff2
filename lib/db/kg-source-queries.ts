// The KG sources a session added (an endpoint or an uploaded file, by its spec), scoped to that session.
import { z } from "zod";
import { KG_SOURCE_KINDS, kgSourceSpecSchema, type KgSourceKind } from "./json";
import type { KgSourceRecord } from "./records";
import { asJson, notFound, parseColumn, parseInput, sessionIdSchema, titleSchema, type QueryContext } from "./rows";

/** The KG-source queries bound to one client. */
export function kgSourceQueries({ db }: QueryContext) {
  async function createKgSource(args: {
    sessionId: string;
    name: string;
    kind: KgSourceKind;
    spec: Record<string, unknown>;
  }): Promise<KgSourceRecord> {
    const sessionId = parseInput(sessionIdSchema, args.sessionId, "session");
    const name = parseInput(titleSchema, args.name, "KG name");
    const kind = parseInput(z.enum(KG_SOURCE_KINDS), args.kind, "KG kind");
    const spec = parseInput(kgSourceSpecSchema, args.spec, "KG spec");
    const row = await db.kgSource.create({ data: { sessionId, name, kind, spec: asJson(spec) } });
    return toKgSourceRecord(row);
  }

  async function listKgSources(args: { sessionId: string }): Promise<KgSourceRecord[]> {
    const rows = await db.kgSource.findMany({ where: { sessionId: args.sessionId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return rows.map(toKgSourceRecord);
  }

  async function getKgSource(args: { sessionId: string; kgSourceId: string }): Promise<KgSourceRecord> {
    const row = await db.kgSource.findFirst({ where: { id: args.kgSourceId, sessionId: args.sessionId } });
    if (!row) throw notFound("KG source", args.kgSourceId);
    return toKgSourceRecord(row);
  }

  async function deleteKgSource(args: { sessionId: string; kgSourceId: string }): Promise<void> {
    const { count } = await db.kgSource.deleteMany({ where: { id: args.kgSourceId, sessionId: args.sessionId } });
    if (count === 0) throw notFound("KG source", args.kgSourceId);
  }

  return { createKgSource, listKgSources, getKgSource, deleteKgSource };
}

function toKgSourceRecord(row: { id: string; name: string; kind: string; spec: unknown; createdAt: Date }): KgSourceRecord {
  return {
    id: row.id,
    name: row.name,
    kind: parseColumn(z.enum(KG_SOURCE_KINDS), row.kind, "kind", row.id),
    spec: parseColumn(kgSourceSpecSchema, row.spec, "spec", row.id),
    createdAt: row.createdAt,
  };
}
