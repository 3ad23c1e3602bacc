import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CHAT_RENDER_SCRIPT } from './chat-page-render.js';
import { CHAT_PAGE_SCRIPT } from './chat-page-script.js';
import { CHAT_PAGE_STYLE } from './chat-page-style.js';

/** A file the chat page loads, served from this server (never a CDN: the page works offline). */
export interface Asset {
  contentType: string;
  body: string;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';
const require = createRequire(import.meta.url);

/** The browser bundle a package ships, read once; its source-map comment dropped (the map is not served). */
function packageBundle(resolve: () => string): () => Asset {
  let asset: Asset | undefined;
  return () => (asset ??= { contentType: JAVASCRIPT, body: readFileSync(resolve(), 'utf8').replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n') });
}

/**
 * The chat page's files by route: the Markdown renderer (marked) and the sanitiser (DOMPurify)
 * as their packages ship them for browsers, from node_modules, so `npm ci` is the whole build;
 * and the page's own renderer, script and style.
 */
export const CHAT_ASSETS: Readonly<Record<string, () => Asset>> = {
  '/assets/marked.js': packageBundle(() => join(dirname(require.resolve('marked/package.json')), 'lib', 'marked.umd.js')),
  '/assets/purify.js': packageBundle(() => require.resolve('dompurify/purify.min.js')),
  '/assets/render.js': () => ({ contentType: JAVASCRIPT, body: CHAT_RENDER_SCRIPT }),
  '/assets/chat.js': () => ({ contentType: JAVASCRIPT, body: CHAT_PAGE_SCRIPT }),
  '/assets/chat.css': () => ({ contentType: 'text/css; charset=utf-8', body: CHAT_PAGE_STYLE }),
};

/**
 * The page runs only its own files: no inline script or style, no other site's. Were a source
 * to slip HTML past the sanitiser, the browser still would not run it.
 */
export const CHAT_PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // Clicking a citation tells the docs site nothing about this server.
  'referrer-policy': 'no-referrer',
};
