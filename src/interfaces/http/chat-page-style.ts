/**
 * The chat page's style: light and dark themes from the reader's system setting, readable from
 * 360 px up with nothing wider than the screen (long URLs wrap; code and tables scroll inside
 * their own box), and a visible focus for keyboard use.
 */
export const CHAT_PAGE_STYLE = String.raw`
:root {
  color-scheme: light dark;
  --background: #ffffff; --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --surface: #f6f8fa;
  --accent: #0969da; --accent-text: #ffffff; --warning: #9a6700; --error: #d1242f; --focus: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --background: #0d1117; --text: #e6edf3; --muted: #9198a1; --line: #3d444d; --surface: #151b23;
    --accent: #4493f8; --accent-text: #0d1117; --warning: #d29922; --error: #f85149; --focus: #4493f8;
  }
}
* { box-sizing: border-box; }
html, body { height: 100%; }
body {
  margin: 0; background: var(--background); color: var(--text);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  display: flex; flex-direction: column; min-height: 100dvh; height: 100dvh;
}
a { color: var(--accent); }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.skip { position: absolute; left: .5rem; top: -3rem; background: var(--surface); padding: .4rem .7rem; border-radius: 6px; z-index: 1; }
.skip:focus { top: .5rem; }
header { padding: .6rem 1rem; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; column-gap: 1rem; align-items: baseline; }
header h1 { font-size: 1.05rem; margin: 0; }
header p { color: var(--muted); font-size: .85rem; margin: 0; min-width: 0; }
#log { flex: 1; overflow-y: auto; overflow-x: hidden; padding: 1rem; width: 100%; max-width: 52rem; margin: 0 auto; min-width: 0; }
#empty h2 { font-size: 1.15rem; margin: .5rem 0 .25rem; }
#empty h3 { font-size: .95rem; margin: 1rem 0 .4rem; }
#indexed { color: var(--muted); margin: 0 0 .4rem; }
#sources { margin: 0; padding-left: 1.2rem; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
#example-list { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
#example-list button {
  font: inherit; font-size: .9rem; text-align: left; padding: .4rem .75rem; border-radius: 999px; max-width: 100%;
  border: 1px solid var(--line); background: var(--surface); color: var(--text); cursor: pointer; overflow-wrap: anywhere;
}
#example-list button:hover { border-color: var(--accent); }
.turn { margin: 0 0 1.25rem; min-width: 0; }
.turn.user { font-weight: 600; white-space: pre-wrap; overflow-wrap: anywhere; }
.answer { overflow-wrap: anywhere; min-width: 0; }
.answer > :first-child { margin-top: 0; }
.answer p, .answer ul, .answer ol, .answer blockquote { margin: 0 0 .7rem; }
.answer ul, .answer ol { padding-left: 1.4rem; }
.answer h1, .answer h2, .answer h3, .answer h4 { font-size: 1rem; margin: 1rem 0 .4rem; }
.answer blockquote { border-left: 3px solid var(--line); padding-left: .8rem; color: var(--muted); }
.answer a { text-decoration: none; }
.answer a:hover, .answer a:focus-visible { text-decoration: underline; }
.answer code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--surface); border: 1px solid var(--line); padding: .05em .3em; border-radius: 4px; overflow-wrap: anywhere; }
.citation { font-size: .8em; vertical-align: super; line-height: 0; margin-left: .1em; white-space: nowrap; }
.citation.pending { color: var(--muted); }
.code-block { margin: 0 0 .8rem; min-width: 0; background: var(--surface); border: 1px solid var(--line); border-radius: 6px; }
.code-bar { display: flex; justify-content: space-between; align-items: center; gap: .5rem; padding: .2rem .3rem .2rem .8rem; border-bottom: 1px solid var(--line); color: var(--muted); font-size: .75rem; }
.code-block pre { margin: 0; padding: .7rem .8rem; overflow-x: auto; max-width: 100%; }
.code-block pre code { background: none; border: 0; padding: 0; overflow-wrap: normal; white-space: pre; }
.copy { font: inherit; font-size: .75rem; padding: .1rem .5rem; border-radius: 5px; border: 1px solid var(--line); background: var(--background); color: var(--text); cursor: pointer; }
.table-scroll { overflow-x: auto; max-width: 100%; margin: 0 0 .8rem; }
.table-scroll table { border-collapse: collapse; }
.table-scroll th, .table-scroll td { border: 1px solid var(--line); padding: .3rem .55rem; text-align: left; overflow-wrap: normal; }
.warnings { margin: .3rem 0 0; padding: 0; list-style: none; color: var(--warning); font-size: .85rem; }
.status { color: var(--muted); font-size: .85rem; margin: .3rem 0 0; }
.status:empty { display: none; }
.error .status, .status.error { color: var(--error); }
#ask { display: flex; flex-wrap: wrap; gap: .5rem; padding: .75rem 1rem .25rem; border-top: 1px solid var(--line); width: 100%; max-width: 52rem; margin: 0 auto; }
textarea {
  flex: 1 1 12rem; min-width: 0; font: inherit; padding: .5rem .65rem; border-radius: 6px; resize: vertical; min-height: 2.75rem; max-height: 40vh;
  border: 1px solid var(--line); background: var(--background); color: var(--text);
}
.actions { display: flex; gap: .5rem; align-items: flex-start; }
button { font: inherit; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-text); cursor: pointer; }
button.secondary { background: var(--background); color: var(--text); border-color: var(--line); }
button:disabled { opacity: .6; cursor: default; }
.hint { flex-basis: 100%; margin: 0; color: var(--muted); font-size: .75rem; }
#settings { font-size: .85rem; color: var(--muted); width: 100%; max-width: 52rem; margin: 0 auto .5rem; padding: 0 1rem; }
#settings input { font: inherit; width: min(18rem, 100%); margin-top: .3rem; border: 1px solid var(--line); border-radius: 5px; padding: .25rem .4rem; background: var(--background); color: var(--text); }
@media (max-width: 480px) {
  header p { display: none; }
  #log { padding: .75rem; }
  #ask { padding: .5rem .75rem .25rem; }
  .hint { display: none; }
}
`;
