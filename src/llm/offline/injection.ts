/**
 * The first pass of `checkPromptInjection`: phrases that address a language model rather than a
 * reader. A page that trips it is then judged by the model when one is configured; without one,
 * this pass decides.
 *
 * Some phrases only ever address a model ("ignore all previous instructions", chat-template
 * tokens): one is enough. Others are also everyday prose ("you are now a member", "new
 * instructions:" in a recipe): they count only when two of them appear together.
 */

const ALONE: RegExp[] = [
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+)?(previous|prior|above|earlier|preceding|your)\s+(instructions|prompts?|rules|directions|context)/i,
  /\breveal\s+(your|the)\s+(system\s+)?(prompt|instructions|secrets?|api keys?)/i,
  /<\/?\s*(system|im_start|im_end|assistant)\s*>|<\|im_(start|end)\|>|\[INST\]/i,
  /\bdo not (follow|obey) (the|your) (user|previous)/i,
  /\b(as an ai|language model),?\s+(you must|you should|ignore)/i,
  // "Ignore all previous instructions" in German, French, Spanish, Italian, Portuguese and Dutch.
  /\b(ignoriere|ignorieren sie|vergiss)\s+(alle\s+)?(vorherigen|bisherigen|obigen)\s+(anweisungen|instruktionen)/i,
  /\b(ignore[zr]?|oublie[zr]?)\s+(toutes\s+)?(les\s+)?instructions\s+(précédentes|antérieures)/i,
  /\b(ignora|ignore|olvida|esquece)\s+(todas\s+)?(las\s+|as\s+|le\s+)?(instrucciones|instruções|istruzioni)\s+(anteriores|precedenti)/i,
  /\b(negeer)\s+(alle\s+)?(vorige|eerdere)\s+(instructies)/i,
];

const TOGETHER: RegExp[] = [
  /\b(you are|act as|pretend to be|you're)\s+now\s+(a|an|the|in)\b/i,
  /\b(system|developer)\s*(prompt|message|instructions?)\s*[:=]/i,
  /\b(new|updated)\s+instructions\s*:/i,
];

export interface InjectionHit {
  pattern: string;
  excerpt: string;
}

function hitsOf(text: string, patterns: RegExp[]): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) hits.push({ pattern: re.source, excerpt: text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ').trim() });
  }
  return hits;
}

/** The phrases that make the text look like prompt injection; none when it does not. */
export function injectionHeuristics(text: string): InjectionHit[] {
  const alone = hitsOf(text, ALONE);
  const together = hitsOf(text, TOGETHER);
  return alone.length > 0 || together.length >= 2 ? [...alone, ...together] : [];
}
