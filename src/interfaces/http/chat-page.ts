/**
 * The chat page served at `/`: one HTML file with no build step. Its script and style, the
 * Markdown renderer and the sanitiser are served by this server under /assets/ (see assets.ts).
 * It says what is indexed, sends the conversation to `/api/chat/stream`, renders the answer's
 * Markdown as it streams with each `[n]` linked to the exact URL#anchor it cites, and can stop.
 */
export const CHAT_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>citedocs</title>
<link rel="stylesheet" href="/assets/chat.css">
<script src="/assets/marked.js" defer></script>
<script src="/assets/purify.js" defer></script>
<script src="/assets/render.js" defer></script>
<script src="/assets/chat.js" defer></script>
</head>
<body>
<a class="skip" href="#question">Skip to the question</a>
<header>
  <h1>citedocs</h1>
  <p>Answers from the indexed documentation, each statement linked to its section.</p>
</header>
<main id="log">
  <section id="empty" aria-labelledby="empty-title">
    <h2 id="empty-title">Ask the documentation</h2>
    <p id="indexed" role="status">Reading what is indexed…</p>
    <ul id="sources"></ul>
    <div id="examples" hidden>
      <h3>Try asking about</h3>
      <ul id="example-list"></ul>
    </div>
  </section>
  <div id="turns" role="log" aria-label="Conversation"></div>
</main>
<form id="ask">
  <label for="question" class="visually-hidden">Question</label>
  <textarea id="question" name="question" rows="2" placeholder="Ask the documentation…" aria-describedby="keys" required></textarea>
  <div class="actions">
    <button id="send" type="submit">Ask</button>
    <button id="stop" type="button" class="secondary" hidden>Stop</button>
  </div>
  <p id="keys" class="hint">Enter sends, Shift+Enter starts a new line, Esc stops an answer.</p>
</form>
<details id="settings">
  <summary>API key</summary>
  <form id="key-form">
    <label for="key" class="visually-hidden">API key</label>
    <input id="key" type="password" placeholder="only if the server requires one" autocomplete="off">
  </form>
</details>
</body>
</html>
`;
