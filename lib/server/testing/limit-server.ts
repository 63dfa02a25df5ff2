// A stand-in server process for the shared rate-limit test: the app's own run limiter (lib/server/limiters.ts, from
// DATABASE_URL and the RATE_LIMIT_* variables) behind POST /acquire?session=…, answering as the turn routes do
// (200, or the 429 + Retry-After of errorResponse). Prints its port on the first line of stdout.
// Run with: tsx --conditions=react-server lib/server/testing/limit-server.ts
import http from "node:http";
import { errorResponse } from "@/lib/server/http";
import { getRateLimiter } from "@/lib/server/limiters";

const server = http.createServer((req, res) => {
  const session = new URL(req.url ?? "/", "http://x").searchParams.get("session") ?? "";
  getRateLimiter()
    .acquire(session)
    .then(
      () => new Response("ok"),
      (e) => errorResponse(e),
    )
    .then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(await r.text());
    });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : 0);
});
// the test kills the process; stdin closing (parent gone) ends it too
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
