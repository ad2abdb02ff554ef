/**
 * JSON out of what a model wrote: the whole answer, a fenced block, or the first balanced
 * object or array in prose (small local models often wrap their JSON in words).
 */

export function parseModelJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const attempts = [text.trim()];
  const fence = text.match(/```(?:json)?\s*\n?([\s\S]*?)```/i);
  if (fence) attempts.push(fence[1]!.trim());
  const start = text.search(/[{[]/);
  if (start >= 0) {
    const open = text[start]!;
    const close = open === '{' ? '}' : ']';
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i]!;
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        attempts.push(text.slice(start, i + 1));
        break;
      }
    }
  }
  for (const a of attempts) {
    try {
      return { ok: true, value: JSON.parse(a) };
    } catch {
      // the next reading
    }
  }
  return { ok: false, error: 'the answer is not JSON' };
}
