/**
 * The chat page served at `/`: one self-contained HTML file (no build step, no external
 * assets). It sends the conversation to `/api/chat/stream`, shows the answer as it streams,
 * then turns each `[n]` into a link to the exact URL#anchor it cites.
 */
export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>citedocs</title>
<style>
  :root { color-scheme: light dark; --accent: #2f6feb; --muted: #6e7781; --line: #d0d7de55; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; display: flex; flex-direction: column; height: 100vh; }
  header { padding: .75rem 1rem; border-bottom: 1px solid var(--line); display: flex; gap: 1rem; align-items: baseline; }
  header h1 { font-size: 1.05rem; margin: 0; }
  header span { color: var(--muted); font-size: .85rem; }
  #log { flex: 1; overflow-y: auto; padding: 1rem; max-width: 52rem; width: 100%; margin: 0 auto; }
  .turn { margin: 0 0 1.25rem; }
  .user { font-weight: 600; }
  .assistant { white-space: pre-wrap; }
  .assistant a { color: var(--accent); text-decoration: none; }
  .assistant a:hover { text-decoration: underline; }
  .assistant code { font: .9em ui-monospace, SFMono-Regular, Menlo, monospace; background: #8881; padding: .05em .3em; border-radius: 4px; }
  .assistant pre { background: #8881; padding: .6rem .8rem; border-radius: 6px; overflow-x: auto; white-space: pre; margin: .4rem 0; }
  .assistant pre code { background: none; padding: 0; }
  .warning { color: #9a6700; font-size: .85rem; margin-top: .35rem; }
  .error { color: #cf222e; }
  form { display: flex; gap: .5rem; padding: .75rem 1rem; border-top: 1px solid var(--line); max-width: 52rem; width: 100%; margin: 0 auto; }
  textarea { flex: 1; font: inherit; padding: .5rem .65rem; border-radius: 6px; border: 1px solid var(--line); resize: vertical; min-height: 2.6rem; }
  button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 0; background: var(--accent); color: #fff; cursor: pointer; }
  button:disabled { opacity: .6; cursor: default; }
  details { font-size: .85rem; color: var(--muted); }
  details input { font: inherit; width: 18rem; }
</style>
</head>
<body>
<header><h1>citedocs</h1><span>Answers from the indexed documentation, each statement linked to its section.</span></header>
<main id="log" aria-live="polite"></main>
<form id="ask">
  <textarea id="question" name="question" placeholder="Ask the documentation…" aria-label="Question" required></textarea>
  <button id="send" type="submit">Ask</button>
</form>
<details style="max-width:52rem;margin:0 auto .5rem;padding:0 1rem;width:100%"><summary>API key</summary>
  <input id="key" type="password" placeholder="only if the server requires one" autocomplete="off">
</details>
<script>
(() => {
  const log = document.getElementById('log');
  const form = document.getElementById('ask');
  const input = document.getElementById('question');
  const send = document.getElementById('send');
  const key = document.getElementById('key');
  key.value = localStorage.getItem('citedocs-key') || '';
  key.addEventListener('change', () => localStorage.setItem('citedocs-key', key.value));
  const messages = [];

  const escape = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  // Code fences and spans become code; [n] becomes a link to the section it cites; bare URLs become links.
  function linked(text, citations) {
    const byNumber = new Map(citations.map((c) => [String(c.n), c]));
    const inline = (part) => escape(part)
      .replace(/\`([^\`\\n]+)\`/g, '<code>$1</code>')
      .replace(/(https?:\\/\\/[^\\s<]+[^\\s<.,;:)\\]])/g, '<a href="$1" target="_blank" rel="noopener">$1</a>')
      .replace(/\\[(\\d+)\\](?![^<]*<\\/a>)/g, (whole, n) => {
        const citation = byNumber.get(n);
        return citation ? '<a class="citation" href="' + escape(citation.url) + '" title="' + escape(citation.title) + '" target="_blank" rel="noopener">[' + n + ']</a>' : whole;
      });
    return text.split(/\`\`\`[\\w-]*\\n?([\\s\\S]*?)\`\`\`\\n?/).map((part, index) => (index % 2 === 1 ? '<pre><code>' + escape(part.replace(/\\n$/, '')) + '</code></pre>' : inline(part))).join('');
  }
  function turn(role, text) {
    const element = document.createElement('div');
    element.className = 'turn ' + role;
    element.textContent = text;
    log.appendChild(element);
    log.scrollTop = log.scrollHeight;
    return element;
  }

  async function ask(question) {
    messages.push({ role: 'user', content: question });
    turn('user', question);
    const answer = turn('assistant', '');
    let text = '';
    const headers = { 'content-type': 'application/json' };
    if (key.value) headers.authorization = 'Bearer ' + key.value;
    try {
      const response = await fetch('/api/chat/stream', { method: 'POST', headers, body: JSON.stringify({ messages }) });
      if (!response.ok || !response.body) {
        const problem = await response.json().catch(() => ({ message: response.statusText }));
        throw new Error(problem.message);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\\n\\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\\n');
          if (!data) continue;
          const event = JSON.parse(data);
          if (event.type === 'delta') { text += event.text; answer.textContent = text; }
          else if (event.type === 'citations') answer.innerHTML = linked(text, event.citations);
          else if (event.type === 'warnings') for (const warning of event.warnings) { const note = document.createElement('div'); note.className = 'warning'; note.textContent = warning; answer.appendChild(note); }
          else if (event.type === 'error') throw new Error(event.message);
          log.scrollTop = log.scrollHeight;
        }
      }
      messages.push({ role: 'assistant', content: text });
      answer.dataset.done = 'true';
    } catch (error) {
      messages.pop();
      answer.classList.add('error');
      answer.textContent = 'Could not answer: ' + error.message;
      answer.dataset.done = 'true';
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question) return;
    input.value = '';
    send.disabled = true;
    try { await ask(question); } finally { send.disabled = false; input.focus(); }
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); form.requestSubmit(); }
  });
})();
</script>
</body>
</html>
`;
