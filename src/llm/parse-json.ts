/**
 * The JSON value in a model's reply, or undefined when there is none. Accepts plain JSON,
 * ```json fences, and prose around an object or array; reasoning models' <think> blocks are
 * ignored. When the prose holds several bracketed spans ("see [1]" before the real object),
 * the longest one that parses wins.
 */
export function parseJsonReply(text: string): unknown {
  const reply = text.replace(/^\uFEFF/, '').replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (reply === '') return undefined;
  const whole = tryParse(reply);
  if (whole.ok) return whole.value;
  for (const match of reply.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse((match[1] ?? '').trim());
    if (fenced.ok) return fenced.value;
  }
  return longestEmbedded(reply);
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function tryParse(text: string): Parsed {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function longestEmbedded(text: string): unknown {
  let best: { length: number; value: unknown } | undefined;
  for (let start = 0; start < text.length; start += 1) {
    const opener = text[start];
    if (opener !== '{' && opener !== '[') continue;
    const end = balancedEnd(text, start);
    if (end === undefined) continue;
    const parsed = tryParse(text.slice(start, end + 1));
    if (!parsed.ok) continue;
    if (best === undefined || end + 1 - start > best.length) best = { length: end + 1 - start, value: parsed.value };
    // Spans inside a parsed value are parts of it, not rivals.
    start = end;
  }
  return best?.value;
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings. */
function balancedEnd(text: string, start: number): number | undefined {
  const closers: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      closers.push(char === '{' ? '}' : ']');
    } else if (char === '}' || char === ']') {
      if (closers.pop() !== char) return undefined;
      if (closers.length === 0) return index;
    }
  }
  return undefined;
}
