// A tiny Markdown renderer for natural-language answers: paragraphs, lists, code, bold, italic and http(s) links.
// It builds React elements (never HTML strings), so model output cannot inject markup or scripts.
import * as React from "react";

type Block = { kind: "p"; text: string } | { kind: "ul" | "ol"; items: string[] } | { kind: "code"; text: string };

export function parseBlocks(src: string): Block[] {
  const blocks: Block[] = [];
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line.trim())) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i].trim())) body.push(lines[i++]);
      i++; // closing fence (or end of text)
      blocks.push({ kind: "code", text: body.join("\n") });
    } else if (/^\s*[-*+]\s+/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && /^\s*[-*+]\s+/.test(lines[i])) items.push(lines[i++].replace(/^\s*[-*+]\s+/, ""));
      blocks.push({ kind: "ul", items });
    } else if (/^\s*\d+[.)]\s+/.test(line)) {
      const items: string[] = [];
      while (i < lines.length && /^\s*\d+[.)]\s+/.test(lines[i])) items.push(lines[i++].replace(/^\s*\d+[.)]\s+/, ""));
      blocks.push({ kind: "ol", items });
    } else if (line.trim() === "") {
      i++;
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i].trim() !== "" && !/^(```|\s*[-*+]\s+|\s*\d+[.)]\s+)/.test(lines[i])) para.push(lines[i++]);
      blocks.push({ kind: "p", text: para.join(" ") });
    }
  }
  return blocks;
}

/** Only web and mail links are rendered as links; anything else (javascript:, data:) stays plain text. */
export function safeHref(url: string): string | null {
  return /^(https?:\/\/|mailto:)/i.test(url.trim()) ? url.trim() : null;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

export function renderInline(text: string, keyPrefix = "i"): React.ReactNode[] {
  const out: React.ReactNode[] = [];
  let rest = text;
  let n = 0;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const tok = m[0];
    const key = `${keyPrefix}-${n++}`;
    if (m[1]) out.push(<code key={key} className="rounded bg-muted px-1 text-[0.9em]">{tok.slice(1, -1)}</code>);
    else if (m[2]) out.push(<strong key={key}>{renderInline(tok.slice(2, -2), key)}</strong>);
    else if (m[3]) out.push(<em key={key}>{renderInline(tok.slice(1, -1), key)}</em>);
    else {
      const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok) ?? [];
      const href = url ? safeHref(url) : null;
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-primary underline underline-offset-2">
            {label}
          </a>
        ) : (
          <span key={key}>{label}</span>
        ),
      );
    }
    rest = rest.slice(m.index + tok.length);
  }
  return out;
}

export function SafeMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className} data-testid="natural-answer">
      {parseBlocks(text).map((b, i) => {
        if (b.kind === "p") return <p key={i} className="mb-2 last:mb-0">{renderInline(b.text, `p${i}`)}</p>;
        if (b.kind === "code")
          return (
            <pre key={i} className="mb-2 overflow-x-auto rounded bg-muted p-2 text-xs">
              <code>{b.text}</code>
            </pre>
          );
        const List = b.kind === "ul" ? "ul" : "ol";
        return (
          <List key={i} className={b.kind === "ul" ? "mb-2 list-disc pl-5" : "mb-2 list-decimal pl-5"}>
            {b.items.map((it, j) => (
              <li key={j}>{renderInline(it, `l${i}-${j}`)}</li>
            ))}
          </List>
        );
      })}
    </div>
  );
}
