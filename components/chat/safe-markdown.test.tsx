// The answer Markdown renderer: model output never becomes raw HTML or script, and only web/mail links are links.
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { parseBlocks, SafeMarkdown, safeHref } from "./safe-markdown";

const html = (text: string) => renderToStaticMarkup(<SafeMarkdown text={text} />);

describe("SafeMarkdown", () => {
  it("renders paragraphs, lists, code, bold, italic and links", () => {
    const out = html("**Rowling** wrote *it*.\n\n- one\n- two\n\n1. first\n2. second\n\n```\nSELECT ?x\n```\n\nSee [the page](https://example.org/a?b=1) and `x`.");
    expect(out).toContain("<strong>Rowling</strong>");
    expect(out).toContain("<em>it</em>");
    expect(out).toMatch(/<ul[^>]*><li>one<\/li><li>two<\/li><\/ul>/);
    expect(out).toMatch(/<ol[^>]*><li>first<\/li><li>second<\/li><\/ol>/);
    expect(out).toMatch(/<pre[^>]*><code>SELECT \?x<\/code><\/pre>/);
    expect(out).toContain('href="https://example.org/a?b=1"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).toMatch(/<code[^>]*>x<\/code>/);
  });

  it("escapes HTML and script in every position", () => {
    const attacks = [
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      "**<b onclick=alert(1)>bold</b>**",
      "- <iframe src=javascript:alert(1)></iframe>",
      "```\n</code></pre><script>alert(1)</script>\n```",
      "[<svg onload=alert(1)>](https://example.org)",
    ];
    for (const a of attacks) {
      const out = html(a);
      expect(out, a).not.toMatch(/<(script|img|iframe|svg|b)\b/i);
      expect(out, a).toContain("&lt;");
    }
  });

  it("never emits javascript:, data: or other non-web links", () => {
    for (const url of ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x", "file:///etc/passwd"]) {
      const out = html(`[click](${url})`);
      expect(out, url).not.toContain("<a ");
      expect(out, url).not.toMatch(/href=/);
      expect(out, url).toContain("click");
    }
    expect(html("[mail](mailto:a@example.org)")).toContain('href="mailto:a@example.org"');
  });

  it("keeps a plain URL-looking text as text (no auto-linking of javascript:)", () => {
    expect(html("javascript:alert(1)")).not.toContain("<a ");
  });
});

describe("safeHref", () => {
  it("allows http(s) and mailto only, trimmed", () => {
    expect(safeHref(" https://a.org ")).toBe("https://a.org");
    expect(safeHref("http://a.org")).toBe("http://a.org");
    expect(safeHref("mailto:x@y.z")).toBe("mailto:x@y.z");
    expect(safeHref(" javascript:alert(1)")).toBeNull();
    expect(safeHref("ftp://a.org")).toBeNull();
  });
});

describe("parseBlocks", () => {
  it("splits paragraphs on blank lines and joins wrapped lines", () => {
    expect(parseBlocks("a\nb\n\nc")).toEqual([
      { kind: "p", text: "a b" },
      { kind: "p", text: "c" },
    ]);
  });
  it("closes an unterminated code fence at the end of the text", () => {
    expect(parseBlocks("```\nx\ny")).toEqual([{ kind: "code", text: "x\ny" }]);
  });
});
