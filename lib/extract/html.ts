import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { appError } from "../errors.ts";

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

/** Browsers stop nesting at 512 levels; past this, the parsers below turn quadratic or overflow. */
export const MAX_MARKUP_DEPTH = 1_000;

export function htmlToMarkdown(html: string, pageUrl?: string): HtmlContent {
  if (markupDepth(html) > MAX_MARKUP_DEPTH) {
    throw appError("corrupt_file", `The page nests elements more than ${MAX_MARKUP_DEPTH} levels deep.`);
  }
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

// Void elements, and those whose end tag is optional (they close themselves).
const NOT_NESTING = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
  "p",
  "li",
  "td",
  "th",
  "tr",
  "option",
  "dt",
  "dd",
]);

const RAW_TEXT = new Set(["script", "style", "textarea", "title"]);

/** The deepest element nesting, counted in one pass over the tags (optional end tags ignored). */
export function markupDepth(markup: string): number {
  const html = markup.toLowerCase();
  let depth = 0;
  let max = 0;
  for (let i = html.indexOf("<"); i !== -1 && i < html.length - 1; i = html.indexOf("<", i + 1)) {
    const closing = html[i + 1] === "/";
    let j = closing ? i + 2 : i + 1;
    const start = j;
    while (j < html.length && /[a-z0-9-]/.test(html[j])) j++;
    if (j === start) continue;
    const tag = html.slice(start, j);
    if (!closing && RAW_TEXT.has(tag)) {
      // Script and style bodies are text, whatever "<" they contain.
      const end = html.indexOf(`</${tag}`, j);
      if (end === -1) break;
      i = end;
      continue;
    }
    const end = html.indexOf(">", j);
    if (end === -1) break;
    // Resume after this tag, so that every character is looked at a bounded number of times.
    i = end;
    if (NOT_NESTING.has(tag)) continue;
    if (closing) depth = Math.max(0, depth - 1);
    else if (html[end - 1] !== "/") max = Math.max(max, ++depth);
  }
  return max;
}

const clean = (s: string) => s.replace(/\s+/g, " ").trim();
const tidy = (md: string) => md.replace(/\n{3,}/g, "\n\n").trim();
