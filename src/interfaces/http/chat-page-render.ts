/**
 * The chat page's Markdown renderer, served as /assets/render.js after marked and DOMPurify
 * (globals `marked` and `DOMPurify`); it defines `citedocsRender(container, text, citations)`.
 * Plain browser JavaScript kept in a raw string (no backtick, no dollar-brace inside).
 *
 * What it links is what the citation checker linked: `[n]` markers of cited sources, and
 * http(s) links in the prose (the checker rewrote each to an indexed page or removed it).
 * Code, inline or fenced, is never linked; raw HTML in an answer is shown as text; the HTML
 * marked makes still goes through DOMPurify before it reaches the page.
 */
export const CHAT_RENDER_SCRIPT = String.raw`(() => {
  'use strict';
  const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const isWebUrl = (href) => typeof href === 'string' && /^https?:\/\/\S+$/i.test(href);

  /** The citations of the answer being rendered, by number (a string). */
  let citationsNow = new Map();
  function citationHtml(n) {
    const citation = citationsNow.get(n);
    if (!citation || !isWebUrl(citation.url)) return '<span class="citation pending">[' + n + ']</span>';
    return '<a class="citation" href="' + escapeHtml(citation.url) + '" title="' + escapeHtml(citation.title || citation.url) + '">[' + n + ']</a>';
  }

  const markdown = new marked.Marked({
    gfm: true,
    breaks: true,
    extensions: [{
      // [1] or [1, 2]: a citation marker; never inside code, which marked keeps as code text.
      name: 'citation',
      level: 'inline',
      start(source) {
        const at = source.search(/\[\d/);
        return at < 0 ? undefined : at;
      },
      tokenizer(source) {
        const match = /^\[(\d+(?:, ?\d+)*)\](?!\()/.exec(source);
        return match ? { type: 'citation', raw: match[0], numbers: match[1].split(/, ?/) } : undefined;
      },
      renderer(token) {
        return token.numbers.map(citationHtml).join('');
      },
    }],
    renderer: {
      html(token) {
        const text = escapeHtml(token.text);
        return token.block ? '<p>' + text + '</p>' : text;
      },
      link(token) {
        const label = this.parser.parseInline(token.tokens);
        // A bare www. or e-mail autolink was never checked: only http(s) links are.
        const bare = !/^[[<]/.test(token.raw);
        if (!isWebUrl(token.href) || (bare && !isWebUrl(token.raw))) return label;
        return '<a href="' + escapeHtml(token.href) + '"' + (token.title ? ' title="' + escapeHtml(token.title) + '"' : '') + '>' + label + '</a>';
      },
      image(token) {
        // No remote images: a link to it, labelled with its text.
        const label = escapeHtml(token.text || token.href);
        return isWebUrl(token.href) ? '<a href="' + escapeHtml(token.href) + '">' + label + '</a>' : label;
      },
    },
  });

  const PURIFY = {
    ALLOWED_TAGS: ['a', 'p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'],
    ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
    RETURN_DOM_FRAGMENT: true,
  };
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    if (!isWebUrl(node.getAttribute('href'))) {
      node.removeAttribute('href');
      return;
    }
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });

  /** Code blocks get a copy button; tables scroll inside their own box. */
  function decorate(fragment) {
    for (const pre of fragment.querySelectorAll('pre')) {
      const box = document.createElement('div');
      box.className = 'code-block';
      const bar = document.createElement('div');
      bar.className = 'code-bar';
      const language = document.createElement('span');
      const named = /language-([\w+#.-]+)/.exec(pre.querySelector('code')?.className || '');
      language.textContent = named ? named[1] : '';
      const copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'copy';
      copy.textContent = 'Copy';
      copy.setAttribute('aria-label', 'Copy code');
      bar.append(language, copy);
      pre.replaceWith(box);
      box.append(bar, pre);
    }
    for (const table of fragment.querySelectorAll('table')) {
      const box = document.createElement('div');
      box.className = 'table-scroll';
      table.replaceWith(box);
      box.append(table);
    }
    return fragment;
  }

  /**
   * Brings the shown answer to the new rendering by changing only what differs: a link already
   * shown stays the same element while the text around it grows, so a click on it lands.
   */
  function morph(current, next) {
    if (current.nodeType !== next.nodeType || current.nodeName !== next.nodeName) return false;
    if (current.nodeType === Node.TEXT_NODE) {
      if (current.data !== next.data) current.data = next.data;
      return true;
    }
    if (current.nodeType !== Node.ELEMENT_NODE) return false;
    for (const attribute of Array.from(current.attributes)) if (!next.hasAttribute(attribute.name)) current.removeAttribute(attribute.name);
    for (const attribute of Array.from(next.attributes)) if (current.getAttribute(attribute.name) !== attribute.value) current.setAttribute(attribute.name, attribute.value);
    patch(current, next);
    return true;
  }
  function patch(container, source) {
    const next = Array.from(source.childNodes);
    const current = Array.from(container.childNodes);
    next.forEach((node, index) => {
      const old = current[index];
      if (!old) container.appendChild(node);
      else if (!old.isEqualNode(node) && !morph(old, node)) container.replaceChild(node, old);
    });
    for (let index = next.length; index < current.length; index += 1) current[index].remove();
  }

  /** Shows text (Markdown) in container, each [n] linked to the citations known so far (a Map by number). */
  window.citedocsRender = (container, text, citations) => {
    citationsNow = citations;
    patch(container, decorate(DOMPurify.sanitize(markdown.parse(text), PURIFY)));
  };
})();
`;
