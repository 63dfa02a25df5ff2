// Next.js config: oxigraph ships a .wasm file next to its JS, so it must stay outside the server bundle.
/** @type {import('next').NextConfig} */
const nextConfig = {
  serverExternalPackages: ["oxigraph"],
  poweredByHeader: false,
};

export default nextConfig;
