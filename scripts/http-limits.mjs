// How scripts/serve.mjs's HTTP server treats request size and the client's address (npm start applies the size too).
/* global Buffer */
// A TEXT2SPARQL question travels in the URL of a GET: at the app's question limit (4,000 characters) it is up to 48 KB
// once URL-encoded (4-byte characters become 12 bytes), over Node's default of 16 KB for the request line and headers.

/** Request line + headers, bytes: the longest question's URL (48 KB) with room for the other headers. */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * A request larger than that (or otherwise unreadable) gets a JSON body FastAPI's way ({"detail": …}), which the
 * official TEXT2SPARQL client can decode and skip, instead of Node's empty 431 that aborts its whole run.
 */
export function answerUnreadableRequests(server, maxHeaderBytes = MAX_HEADER_BYTES) {
  server.on("clientError", (err, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
    const detail = tooLarge
      ? `The request line and headers are larger than ${Math.round(maxHeaderBytes / 1024)} KB. A question may have at most 4,000 characters.`
      : "The request could not be read.";
    const body = JSON.stringify({ detail });
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  return server;
}

/** The address the connection came from, in a header the client cannot set (rate limits per address read it). */
export const CLIENT_ADDRESS_HEADER = "x-chatty-client-addr";

export function withClientAddress(next) {
  return (req, res) => {
    req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? "unknown";
    next(req, res);
  };
}
