// Light/dark toggle: sets class="light" or class="dark" on <html> and remembers it (the layout's script applies it before paint).
"use client";
import { useEffect, useState } from "react";
import { MoonIcon, SunIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { THEME_STORAGE_KEY } from "./theme-script";


function currentTheme(): "light" | "dark" {
  const c = document.documentElement.classList;
  if (c.contains("dark")) return "dark";
  if (c.contains("light")) return "light";
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<"light" | "dark" | null>(null);
  useEffect(() => setTheme(currentTheme()), []);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <Button
      size="icon"
      variant="ghost"
      className="size-8"
      aria-label={`Switch to ${next} theme`}
      data-testid="theme-toggle"
      onClick={() => {
        const c = document.documentElement.classList;
        c.remove("light", "dark");
        c.add(next);
        window.localStorage.setItem(THEME_STORAGE_KEY, next);
        setTheme(next);
      }}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
