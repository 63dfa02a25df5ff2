// Scripted-LLM fixtures for whole-pipeline tests: per-role replies in JSON with "#<regex>" option markers resolved from the
// prompt. The one implementation lives in lib/eval/ck25-scripted.ts (shared with scripts/bench); re-exported for the tests.
export { promptOptions, readJson, resolveReply, roleRepliesSchema, scriptFrom, type RoleReplies } from "@/lib/eval/ck25-scripted";
