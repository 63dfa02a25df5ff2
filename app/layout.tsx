// Root layout: the self-hosted Inter font (no Google Fonts fetch, so builds work offline), global styles, and the
// stored light/dark theme applied before the first paint (no flash).
import type { Metadata } from "next";
import type { ReactNode } from "react";
import localFont from "next/font/local";
import { THEME_INIT_SRC } from "@/components/config/theme-script";
import "./globals.css";

const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: "Chatty-KG",
  description: "Chat, in any language and over several turns, with any RDF knowledge graph.",
  icons: { icon: "/favicon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // the theme script adds a class to <html> before React hydrates
    <html lang="en" className={inter.variable} suppressHydrationWarning>
      <head>
        {/* blocking on purpose: it must run before the first paint to avoid a theme flash */}
        <script src={THEME_INIT_SRC} />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">{children}</body>
    </html>
  );
}
