// The SPARQL workbench on its own page, for long sessions: /workbench?kg=<id>&q=<query> (what "Copy link" makes).
import type { Metadata } from "next";
import { WorkbenchPage } from "@/components/sparql/workbench-page";

export const metadata: Metadata = { title: "SPARQL workbench · Chatty-KG" };

export default async function Workbench({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return <WorkbenchPage initialKgId={one(params.kg)} initialQuery={one(params.q) ?? ""} />;
}
