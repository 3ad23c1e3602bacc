/**
 * The chat page's script, served as /assets/chat.js after the renderer (/assets/render.js):
 * the conversation, the stream, Stop and Esc, copy buttons and the empty state. Plain browser
 * JavaScript kept in a raw string (no backtick, no dollar-brace inside): nothing to build.
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

  if (!window.citedocsRender) {
    indexed.textContent = 'The page could not load its Markdown renderer (/assets/marked.js, /assets/purify.js, /assets/render.js).';
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

  const plural = (count, noun) => count + ' ' + noun + (count === 1 ? '' : 's');
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
      window.citedocsRender(body, text, citations);
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
