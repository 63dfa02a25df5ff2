// Focus for the narrow-screen drawers: focus moves in on open, Tab stays inside while open, focus goes back on close.
"use client";
import { useEffect, useRef, type RefObject } from "react";

/** Matches the `lg:` breakpoint: below it the side panels are modal drawers, above it they are plain columns. */
export const NARROW_QUERY = "(max-width: 1023px)";

const TABBABLE = "a[href], button, input, select, textarea, [tabindex], [contenteditable=true]";

/** Elements Tab can reach inside `root`, in DOM order (skips disabled, tabindex -1 and hidden ones). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.matches(":disabled") && el.getClientRects().length > 0 && !el.closest("[inert]"),
  );
}

/** A radix dialog (entity card, rename/delete confirm) above the drawer owns focus and Tab while it is open. */
const dialogOnTop = () => document.querySelector("[role=dialog],[role=alertdialog]") !== null;

/**
 * While `open` on a narrow screen: focus the drawer's first tabbable element (or the drawer itself), keep Tab and
 * Shift+Tab cycling inside it (the backdrop makes it modal), and on close hand focus back to what opened it (the
 * toggle, or e.g. a turn's "How it was derived" button), falling back to `toggle` when that is gone or hidden.
 */
export function useDrawerFocus(open: boolean, drawer: RefObject<HTMLElement | null>, toggle: RefObject<HTMLElement | null>) {
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    const root = drawer.current;
    if (open && !wasOpen.current) {
      wasOpen.current = true;
      if (!root || !window.matchMedia(NARROW_QUERY).matches) return;
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body && !root.contains(active) ? active : null;
      // focus() after commit: the drawer's display has already switched from hidden, so its elements are focusable
      const first = tabbables(root)[0];
      if (first) first.focus();
      else root.focus();
    } else if (!open && wasOpen.current) {
      wasOpen.current = false;
      const back = [opener.current, toggle.current].find((el) => el?.isConnected && el.getClientRects().length > 0);
      opener.current = null;
      // only when focus was in the drawer or got dropped to <body> with it; a click elsewhere keeps its focus
      const active = document.activeElement;
      if (back && (active === document.body || active === null || root?.contains(active))) back.focus();
    }
  }, [open, drawer, toggle]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      const root = drawer.current;
      if (e.key !== "Tab" || e.defaultPrevented || !root || dialogOnTop() || !window.matchMedia(NARROW_QUERY).matches) return;
      const items = tabbables(root);
      if (items.length === 0) {
        e.preventDefault();
        root.focus();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      const inside = active instanceof HTMLElement && root.contains(active);
      // wrap at the ends; from outside (focus lost to the page) come back in at the matching end
      if (!inside || (e.shiftKey ? active === first || active === root : active === last)) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, drawer]);
}
