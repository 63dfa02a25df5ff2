// A local SPARQL 1.1 Protocol endpoint for tests (oxigraph in-process), which can also misbehave on request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import oxigraph from "oxigraph";
import { parseSparql } from "@/lib/kg/sparql-syntax";

export type Misbehaviour =
  /** answer with this status and body instead of running the query */
  | { kind: "status"; status: number; body?: string; contentType?: string }
  /** a 200 with an HTML page, like a web UI in front of the endpoint */
  | { kind: "html" }
  /** a 200 with any body and content type */
  | { kind: "body"; body: string; contentType: string }
  /** never answer at all */
  | { kind: "hang" }
  /** send the headers and part of the body, then never finish */
  | { kind: "hang-body"; contentType?: string }
  /** answer normally after `ms` */
  | { kind: "delay"; ms: number }
  /** destroy the connection without a reply */
  | { kind: "close" }
  /** stream `bytes` bytes of JSON-looking filler (no Content-Length) */
  | { kind: "huge"; bytes: number };

export interface RecordedRequest {
  method: string;
  path: string;
  /** the request target with its query string */
  url: string;
  query?: string;
  contentType?: string;
  accept?: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestSparqlEndpoint {
  /** the endpoint URL, e.g. http://127.0.0.1:40123/sparql */
  url: string;
  /** the base URL (no path), for other routes */
  origin: string;
  requests: RecordedRequest[];
  store: oxigraph.Store;
  /** applies to every following request until behave() is called */
  misbehave(m: Misbehaviour): void;
  behave(): void;
  close(): Promise<void>;
}

export interface EndpointOptions {
  turtle?: string;
  store?: oxigraph.Store;
  path?: string;
}

export async function startSparqlEndpoint(options: EndpointOptions = {}): Promise<TestSparqlEndpoint> {
  const store = options.store ?? new oxigraph.Store();
  if (options.turtle) store.load(options.turtle, { format: "text/turtle", base_iri: "http://example.org/" });
  const path = options.path ?? "/sparql";
  const requests: RecordedRequest[] = [];
  let mode: Misbehaviour | undefined;
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const body = Buffer.concat(chunks).toString("utf8");
      const contentType = req.headers["content-type"]?.split(";")[0].trim();
      let query: string | undefined;
      if (req.method === "GET") query = url.searchParams.get("query") ?? undefined;
      else if (req.method === "POST" && contentType === "application/x-www-form-urlencoded") query = new URLSearchParams(body).get("query") ?? undefined;
      else if (req.method === "POST" && contentType === "application/sparql-query") query = body;
      requests.push({ method: req.method ?? "", path: url.pathname, url: req.url ?? "", query, contentType, accept: req.headers.accept, headers: req.headers });

      const current = mode;
      if (current?.kind === "delay") {
        const t = setTimeout(() => {
          timers.delete(t);
          answer(res, url.pathname, req.method, query, req.headers.accept);
        }, current.ms);
        timers.add(t);
        return;
      }
      if (current) return misbehaveOn(req, res, current);
      answer(res, url.pathname, req.method, query, req.headers.accept);
    });
  });

  function answer(res: http.ServerResponse, pathname: string, method: string | undefined, query: string | undefined, accept = "") {
    if (pathname !== path) return send(res, 404, "text/plain", "Not found");
    if (method !== "GET" && method !== "POST") return send(res, 405, "text/plain", "Method not allowed");
    if (!query) return send(res, 400, "text/plain", "Missing 'query' parameter");
    let queryType: string;
    try {
      const parsed = parseSparql(query);
      if (parsed.type === "update") return send(res, 400, "text/plain", "Updates are not accepted at the query endpoint");
      queryType = parsed.queryType;
    } catch (e) {
      return send(res, 400, "text/plain", `Parse error: ${(e as Error).message}`);
    }
    try {
      if (queryType === "CONSTRUCT" || queryType === "DESCRIBE") {
        const format = accept.includes("application/n-triples") ? "application/n-triples" : "text/turtle";
        return send(res, 200, format, store.query(query, { results_format: format }) as string);
      }
      return send(res, 200, "application/sparql-results+json", store.query(query, { results_format: "application/sparql-results+json" }) as string);
    } catch (e) {
      return send(res, 500, "text/plain", `Query evaluation failed: ${(e as Error).message}`);
    }
  }

  function misbehaveOn(req: http.IncomingMessage, res: http.ServerResponse, m: Misbehaviour) {
    switch (m.kind) {
      case "status":
        return send(res, m.status, m.contentType ?? "text/plain", m.body ?? `Error ${m.status}`);
      case "html":
        return send(res, 200, "text/html; charset=utf-8", "<!DOCTYPE html><html><head><title>SPARQL UI</title></head><body><h1>Welcome to the query editor</h1></body></html>");
      case "body":
        return send(res, 200, m.contentType, m.body);
      case "hang":
        return; // never answers; close() destroys the socket
      case "hang-body":
        res.writeHead(200, { "content-type": m.contentType ?? "application/sparql-results+json" });
        res.write('{"head":{"vars":["s"]},"results":{"bindings":[');
        return;
      case "close":
        req.socket.destroy();
        return;
      case "huge": {
        res.writeHead(200, { "content-type": "application/sparql-results+json" });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < m.bytes) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("error", () => undefined);
        pump();
        return;
      }
      case "delay":
        return; // handled before
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${path}`,
    origin,
    requests,
    store,
    misbehave: (m) => void (mode = m),
    behave: () => void (mode = undefined),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: http.ServerResponse, status: number, contentType: string, body: string) {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(body);
}
