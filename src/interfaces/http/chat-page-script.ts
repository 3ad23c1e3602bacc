/**
 * The chat page's script, served as /assets/chat.js after marked and DOMPurify (globals
 * `marked` and `DOMPurify`). Plain browser JavaScript kept in a raw string (no backtick, no
 * dollar-brace inside): there is nothing to build.
 *
 * What it links is what the citation checker linked: `[n]` markers of cited sources, and
 * http(s) links in the prose (the checker rewrote each to an indexed page or removed it).
 * Code, inline or fenced, is never linked; raw HTML in an answer is shown as text; the HTML
 * marked makes still goes through DOMPurify before it reaches the page.
 */
export const CHAT_PAGE_SCRIPT = String.raw`(() => {
  'use strict';
  const byId = (id) => document.getElementById(id);
  const log = byId('log');
  const turns = byId('turns');
  const form = byId('ask');
  const input = byId('question');
  const send = byId('send');
  const stop = byId('stop');
  const key = byId('key');
  const empty = byId('empty');
  const indexed = byId('indexed');
  /** The conversation so far, as /api/chat/stream takes it. */
  const messages = [];
  /** The AbortController of the answer being written, if any. */
  let running;

  if (!window.marked || !window.DOMPurify) {
    indexed.textContent = 'The page could not load its Markdown renderer (/assets/marked.js, /assets/purify.js).';
    return;
  }

  key.value = localStorage.getItem('citedocs-key') || '';
  key.addEventListener('change', () => {
    localStorage.setItem('citedocs-key', key.value);
    describeIndex();
  });
  byId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    key.dispatchEvent(new Event('change'));
  });
  const headers = (json) => {
    const result = json ? { 'content-type': 'application/json' } : {};
    if (key.value) result.authorization = 'Bearer ' + key.value;
    return result;
  };

  const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const isWebUrl = (href) => typeof href === 'string' && /^https?:\/\/\S+$/i.test(href);
  const plural = (count, noun) => count + ' ' + noun + (count === 1 ? '' : 's');

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

  const nearBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 48;
  function addTurn(role) {
    const turn = document.createElement('article');
    turn.className = 'turn ' + role;
    turns.appendChild(turn);
    return turn;
  }

  /** The assistant's turn: Markdown rendered as it streams (once per frame), citations linked as soon as they are known. */
  function answerView() {
    const turn = addTurn('assistant');
    turn.setAttribute('aria-busy', 'true');
    const body = document.createElement('div');
    body.className = 'answer';
    const warnings = document.createElement('ul');
    warnings.className = 'warnings';
    const status = document.createElement('p');
    status.className = 'status';
    status.setAttribute('role', 'status');
    turn.append(body, warnings, status);
    let text = '';
    let citations = new Map();
    let frame = 0;
    const render = () => {
      frame = 0;
      const stick = nearBottom();
      citationsNow = citations;
      patch(body, decorate(DOMPurify.sanitize(markdown.parse(text), PURIFY)));
      if (stick) log.scrollTop = log.scrollHeight;
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(render);
    };
    return {
      turn,
      text: () => text,
      append(delta) {
        text += delta;
        schedule();
      },
      cite(list, replace) {
        if (replace) citations = new Map();
        for (const citation of list) citations.set(String(citation.n), citation);
        schedule();
      },
      warn(list) {
        for (const warning of list) {
          const item = document.createElement('li');
          item.textContent = warning;
          warnings.appendChild(item);
        }
      },
      finish(state, note) {
        if (frame) cancelAnimationFrame(frame);
        render();
        turn.removeAttribute('aria-busy');
        turn.dataset.state = state;
        turn.dataset.done = 'true';
        if (state === 'error') turn.classList.add('error');
        status.textContent = note;
      },
    };
  }

  /** Calls onEvent with each data: event of a server-sent event stream. */
  async function readEvents(body, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
        if (data) onEvent(JSON.parse(data));
      }
    }
  }

  function setRunning(controller) {
    const hadFocus = document.activeElement === send;
    running = controller;
    send.disabled = Boolean(controller);
    stop.hidden = !controller;
    if (controller && hadFocus) stop.focus();
  }

  async function ask(question) {
    empty.hidden = true;
    messages.push({ role: 'user', content: question });
    addTurn('user').textContent = question;
    const answer = answerView();
    log.scrollTop = log.scrollHeight;
    const controller = new AbortController();
    setRunning(controller);
    try {
      const response = await fetch('/api/chat/stream', { method: 'POST', headers: headers(true), body: JSON.stringify({ messages }), signal: controller.signal });
      if (!response.ok || !response.body) {
        const problem = await response.json().catch(() => ({}));
        throw new Error(problem.message || response.status + ' ' + response.statusText);
      }
      let finished = false;
      await readEvents(response.body, (event) => {
        if (event.type === 'delta') answer.append(event.text);
        else if (event.type === 'cited') answer.cite(event.citations, false);
        else if (event.type === 'citations') answer.cite(event.citations, true);
        else if (event.type === 'warnings') answer.warn(event.warnings);
        else if (event.type === 'done') finished = true;
        else if (event.type === 'error') throw new Error(event.message);
      });
      if (!finished) throw new Error('the answer ended before it was complete.');
      messages.push({ role: 'assistant', content: answer.text() });
      answer.finish('done', '');
    } catch (error) {
      if (controller.signal.aborted) {
        if (answer.text().trim()) messages.push({ role: 'assistant', content: answer.text() });
        else messages.pop();
        answer.finish('stopped', 'Stopped.');
      } else {
        messages.pop();
        answer.finish('error', 'Could not answer: ' + error.message);
      }
    } finally {
      setRunning(undefined);
      input.focus();
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question || running) return;
    input.value = '';
    ask(question);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  stop.addEventListener('click', () => running && running.abort());
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      running.abort();
    }
  });
  log.addEventListener('click', async (event) => {
    const button = event.target.closest('button.copy');
    if (!button) return;
    const code = button.closest('.code-block').querySelector('pre');
    const text = code ? code.textContent : '';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = document.createElement('textarea');
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand('copy');
      area.remove();
      button.focus();
    }
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  });

  /** The empty state: what is indexed, and a few topics to try. */
  async function describeIndex() {
    const sources = byId('sources');
    const examples = byId('examples');
    const list = byId('example-list');
    sources.replaceChildren();
    list.replaceChildren();
    examples.hidden = true;
    try {
      const response = await fetch('/api/sources', { headers: headers(false) });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        indexed.textContent = response.status === 401
          ? 'This server needs an API key: enter it under “API key” below to see what is indexed.'
          : 'Could not read what is indexed: ' + (body.message || response.statusText);
        return;
      }
      if (!body.pages) {
        indexed.textContent = 'The index is empty: add documentation with citedocs ingest (a URL or a folder), then reload this page.';
        return;
      }
      indexed.textContent = plural(body.pages, 'page') + ' (' + plural(body.chunks, 'passage') + ') from ' + plural(body.sources.length, 'documentation set') + ':';
      for (const source of body.sources.slice(0, 5)) {
        const item = document.createElement('li');
        item.textContent = source.url + ' — ' + plural(source.pages, 'page');
        sources.appendChild(item);
      }
      if (body.sources.length > 5) {
        const item = document.createElement('li');
        item.textContent = 'and ' + plural(body.sources.length - 5, 'more set');
        sources.appendChild(item);
      }
      for (const question of body.examples) {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = question;
        button.addEventListener('click', () => {
          input.value = question;
          form.requestSubmit();
        });
        item.appendChild(button);
        list.appendChild(item);
      }
      examples.hidden = body.examples.length === 0;
    } catch (error) {
      indexed.textContent = 'Could not read what is indexed (' + error.message + ').';
    }
  }

  describeIndex();
  input.focus();
})();
`;
