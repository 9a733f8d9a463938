import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

// HTML → Markdown of the main content. Readability finds the article; when it finds nothing
// (short pages, app shells), the body minus navigation and page furniture stands in.

export interface HtmlContent {
  title?: string;
  markdown: string;
  usedReadability: boolean;
}

const FURNITURE = "script, style, noscript, template, iframe, svg, canvas, form, nav, header, footer, aside";

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove(["script", "style", "noscript", "iframe"]);
// Inline images carry no text and data: URIs can be megabytes long.
turndown.addRule("images", {
  filter: "img",
  replacement: (_content, node) => {
    const alt = (node as HTMLElement).getAttribute("alt")?.trim();
    return alt ? `[image: ${alt}]` : "";
  },
});

export function htmlToMarkdown(html: string, pageUrl?: string): HtmlContent {
  const { document } = parseHTML(html);
  absolutizeLinks(document, pageUrl);
  const pageTitle = clean(document.querySelector("title")?.textContent ?? "");

  let article: ReturnType<Readability["parse"]> = null;
  try {
    // Readability mutates the document it reads; give it its own copy.
    article = new Readability(parseHTML(document.toString()).document as unknown as Document, {
      charThreshold: 200,
    }).parse();
  } catch {
    article = null;
  }
  if (article?.content && clean(article.textContent ?? "").length >= 100) {
    const markdown = tidy(turndown.turndown(article.content));
    return { title: clean(article.title ?? "") || pageTitle || undefined, markdown, usedReadability: true };
  }

  for (const el of document.querySelectorAll(FURNITURE)) el.remove();
  const body = document.querySelector("body");
  const markdown = body ? tidy(turndown.turndown(body.innerHTML)) : clean(document.textContent ?? "");
  return { title: pageTitle || undefined, markdown, usedReadability: false };
}

function absolutizeLinks(document: ReturnType<typeof parseHTML>["document"], pageUrl?: string) {
  if (!pageUrl) return;
  for (const [selector, attr] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (!value) continue;
      try {
        el.setAttribute(attr, new URL(value, pageUrl).href);
      } catch {
        // Leave links we cannot parse as they are.
      }
    }
  }
}

const clean = (s: string) => s.replace(/\s+/g, " ").trim();
const tidy = (md: string) => md.replace(/\n{3,}/g, "\n\n").trim();
