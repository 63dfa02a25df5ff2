// The HTTP/server-action contract between the browser and the server: zod request schemas and response types, one
// file per part (shared pieces, the turn stream, KG requests, conversations), all importable from here.
// Shared by app/api/**, app/(chat)/actions.ts and client components, so it imports nothing server-only.
export * from "./shared";
export * from "./turn-stream";
export * from "./kg-requests";
export * from "./conversations";
export * from "./sparql-assist";
export { STAGES } from "@/lib/pipeline/types";
