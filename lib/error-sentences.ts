// What a person reads when something fails: one sentence on what happened and one on what to do, per stable error
// code (lib/errors.ts). The code and the server's own message stay available as a details line; the API keeps both.
// Browser-safe: no server imports.
import type { ErrorCode } from "./errors";

export interface ErrorSentence {
  /** what happened, as a sentence */
  what: string;
  /** what the person can do about it */
  todo: string;
}

/** Codes the browser makes up itself (a dropped stream, no network, a page that is not JSON). */
type ClientCode = "stream_error" | "network" | "error";

const SENTENCES: Record<ErrorCode | ClientCode, ErrorSentence> = {
  bad_request: { what: "The request was not accepted as sent.", todo: "Check what you typed and try again." },
  not_found: { what: "This was not found: it may have been deleted, or it belongs to another browser or user.", todo: "Reload the page or start a new chat." },
  too_large: { what: "This is larger than the server accepts.", todo: "Send something smaller (for files: split them, or ask the operator to raise the limit)." },
  url_forbidden: { what: "That address is not allowed from this server.", todo: "Use one of the addresses the details name, or ask the operator to allow it." },
  unauthorized: { what: "You are signed out.", todo: "Sign in again and repeat what you did." },
  rate_limited: { what: "Too many questions in a short time.", todo: "Wait a minute, then try again." },
  sparql_syntax: { what: "The query is not valid SPARQL.", todo: "Fix it at the line shown and run it again." },
  sparql_forbidden: { what: "Only read-only queries run here, and this one would change the KG or call another service.", todo: "Use SELECT, ASK, CONSTRUCT or DESCRIBE without INSERT, DELETE, LOAD or SERVICE." },
  kg_load: { what: "The KG could not be loaded from these files.", todo: "Fix the file at the line shown, or choose another file." },
  kg_timeout: { what: "The KG took too long to answer.", todo: "Try again, or raise the query time limit in Advanced settings." },
  kg_unreachable: { what: "The KG's endpoint could not be reached.", todo: "Check that the endpoint is up and its address is right, then try again." },
  kg_http: { what: "The KG's endpoint answered with an error.", todo: "Try again later, or check the endpoint's address." },
  kg_bad_response: { what: "The KG's endpoint sent something that is not a SPARQL result.", todo: "Check that the address is a SPARQL endpoint." },
  kg_unavailable: { what: "The KG is not available right now.", todo: "Pick another KG, or try again in a moment." },
  sql_syntax: { what: "The SQL is not valid.", todo: "Fix it at the line shown and run it again." },
  sql_forbidden: { what: "Only read-only SQL runs here.", todo: "Use a SELECT query." },
  sql_timeout: { what: "The SQL query took too long.", todo: "Narrow it down and run it again." },
  llm_not_configured: { what: "No language model is set up, so questions cannot be answered.", todo: "Choose a model under Model in the settings, or ask the operator to set one up." },
  llm_auth: { what: "The language model refused the server's key.", todo: "Ask the operator to check the API key." },
  llm_rate_limit: { what: "The language model's provider is limiting requests.", todo: "Wait a minute, then retry." },
  llm_server: { what: "The language model's server had an error.", todo: "Retry in a moment." },
  llm_timeout: { what: "The language model took too long to reply.", todo: "Retry; if it keeps happening, pick a faster model." },
  llm_bad_output: { what: "The language model's reply could not be used.", todo: "Retry, or try another strategy or model." },
  embedding_unavailable: { what: "The embedding model could not be loaded.", todo: "Answers still work with a simpler similarity; the operator can install the model." },
  pipeline_failed: { what: "The question could not be answered.", todo: "Retry, rephrase the question, or look at the derivation to see which step failed." },
  aborted: { what: "Stopped before it finished.", todo: "Retry to run it again." },
  internal: { what: "Something went wrong on the server.", todo: "Retry; if it happens again, the server log says more." },
  stream_error: { what: "The connection to the server dropped before the answer was complete.", todo: "Retry; the question is kept." },
  network: { what: "The server could not be reached.", todo: "Check your connection and retry." },
  error: { what: "Something went wrong.", todo: "Retry." },
};

/** The sentences for a code (unknown codes, e.g. http_502, get a generic pair naming the status). */
export function errorSentence(code: string): ErrorSentence {
  if (code in SENTENCES) return SENTENCES[code as keyof typeof SENTENCES];
  const http = /^http_(\d{3})$/.exec(code);
  if (http) return { what: `The server answered with status ${http[1]}.`, todo: "Retry in a moment." };
  return SENTENCES.error;
}

/** The details line under the sentences: the stable code, and the server's own words when they add something. */
export function errorDetails(error: { code: string; message?: string }): string {
  const message = error.message?.trim();
  return message ? `${error.code}: ${message}` : error.code;
}
