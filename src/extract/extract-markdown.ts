import GithubSlugger from 'github-slugger';
import matter from 'gray-matter';
import type { Heading as MdastHeading, Link, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import type { Heading } from '../core/types.js';

export interface ExtractedMarkdown {
  title: string;
  markdown: string;
  headings: Heading[];
  anchors: string[];
  frontMatter: Record<string, unknown>;
  /** Absolute http(s) targets of the document's links (after `resolveLink`), without fragments. */
  links: string[];
}

export interface ExtractMarkdownOptions {
  /** Title when the document has neither a front-matter title nor an h1. */
  fallbackTitle: string;
  /** Rewrites a relative link target (`../b.md#x`) to an absolute URL, or keeps it when undefined. */
  resolveLink?: (target: string) => string | undefined;
}

const CUSTOM_ID = /\s*\{#([^}\s]+)\}\s*$/;

/**
 * A Markdown/MDX document as a page: front matter read, headings with GitHub-style slugs
 * (or an explicit `{#id}`), relative links rewritten to the URLs they are published at.
 */
export function extractMarkdown(source: string, options: ExtractMarkdownOptions): ExtractedMarkdown {
  const parsed = matter(source);
  const frontMatter = parsed.data as Record<string, unknown>;
  const body = parsed.content;
  const tree = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

  const edits: { start: number; end: number; text: string }[] = [];
  const headings: Heading[] = [];
  const anchors = new Set<string>();
  const links = new Set<string>();
  const slugger = new GithubSlugger();

  visit(tree, (node) => {
    if (node.type === 'heading') {
      headings.push(readHeading(node, body, slugger, edits));
      const anchor = headings.at(-1)?.anchor;
      if (anchor !== undefined) anchors.add(anchor);
    } else if (node.type === 'html') {
      for (const match of node.value.matchAll(/\b(?:id|name)\s*=\s*["']([^"']+)["']/g)) {
        if (match[1] !== undefined) anchors.add(match[1]);
      }
    } else if (node.type === 'link') {
      const resolved = options.resolveLink?.(node.url) ?? node.url;
      if (/^https?:\/\//i.test(resolved)) links.add(resolved.split('#')[0] ?? resolved);
      const edit = options.resolveLink === undefined ? undefined : rewriteLink(node, body, options.resolveLink);
      if (edit !== undefined) edits.push(edit);
    }
  });

  const markdown = applyEdits(body, edits).trim();
  const frontTitle = typeof frontMatter['title'] === 'string' ? frontMatter['title'].trim() : '';
  const h1 = headings.find((heading) => heading.level === 1)?.text;
  return { title: frontTitle || h1 || options.fallbackTitle, markdown, headings, anchors: [...anchors], frontMatter, links: [...links] };
}

function readHeading(node: MdastHeading, body: string, slugger: GithubSlugger, edits: { start: number; end: number; text: string }[]): Heading {
  let text = toString(node).replace(/\s+/g, ' ').trim();
  const custom = CUSTOM_ID.exec(text);
  if (custom?.[1] !== undefined) {
    text = text.slice(0, custom.index).trim();
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) {
      const line = body.slice(start, end);
      edits.push({ start, end, text: line.replace(CUSTOM_ID, '') });
    }
    slugger.slug(custom[1]); // reserve it, so a later heading with the same text gets a suffix
    return { level: node.depth, text, anchor: custom[1] };
  }
  return { level: node.depth, text, anchor: slugger.slug(text) };
}

function rewriteLink(node: Link, body: string, resolveLink: (target: string) => string | undefined) {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  const resolved = resolveLink(node.url);
  if (resolved === undefined || resolved === node.url) return undefined;
  const first = node.children[0]?.position?.start.offset;
  const last = node.children.at(-1)?.position?.end.offset;
  const label = first === undefined || last === undefined ? toString(node) : body.slice(first, last);
  return { start, end, text: `[${label}](${resolved})` };
}

function applyEdits(text: string, edits: { start: number; end: number; text: string }[]): string {
  let result = text;
  let appliedFrom = Number.POSITIVE_INFINITY;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    if (edit.end > appliedFrom) continue; // nested in an edit already made (a link inside a heading)
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    appliedFrom = edit.start;
  }
  return result;
}

function visit(node: Nodes, callback: (node: Nodes) => void): void {
  callback(node);
  if ('children' in node) for (const child of node.children) visit(child, callback);
}
