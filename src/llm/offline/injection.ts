/**
 * The first pass of `checkPromptInjection`: phrases that address a language model rather than a
 * reader. A page that trips one is then judged by the model when one is configured.
 */

const PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+)?(previous|prior|above|earlier|preceding|your)\s+(instructions|prompts?|rules|directions|context)/i,
  /\b(you are|act as|pretend to be|you're)\s+now\s+(a|an|the|in)\b/i,
  /\b(system|developer)\s*(prompt|message|instructions?)\s*[:=]/i,
  /\breveal\s+(your|the)\s+(system\s+)?(prompt|instructions|secrets?|api keys?)/i,
  /<\/?\s*(system|im_start|im_end|assistant)\s*>|<\|im_(start|end)\|>|\[INST\]/i,
  /\b(new|updated)\s+instructions\s*:/i,
  /\bdo not (follow|obey) (the|your) (user|previous)/i,
  /\b(as an ai|language model),?\s+(you must|you should|ignore)/i,
];

export interface InjectionHit {
  pattern: string;
  excerpt: string;
}

export function injectionHeuristics(text: string): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const re of PATTERNS) {
    const m = re.exec(text);
    if (m) hits.push({ pattern: re.source, excerpt: text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ').trim() });
  }
  return hits;
}
