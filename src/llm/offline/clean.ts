/**
 * `onlyCleanContent` without a model: drops what the main-content rules left of the page's chrome
 * in the markdown — cookie and newsletter prompts, share bars, "skip to content", copyright lines,
 * runs of bare links — and keeps everything else as it was.
 */

const BOILERPLATE = [
  /\bcookies?\b.*\b(accept|consent|policy|settings|use)\b/i,
  /\b(accept|reject) all\b/i,
  /\bsubscribe\b.*\b(newsletter|inbox|updates)\b/i,
  /\bsign up for (our|the) newsletter\b/i,
  /^share (this|on)\b/i,
  /^(share|tweet|pin it|email)(\s*[|·•/]\s*(facebook|twitter|x|linkedin|email|reddit|whatsapp|pinterest))+\s*$/i,
  /^skip to (main )?content$/i,
  /(©|\(c\)|copyright)\s*\d{4}/i,
  /\ball rights reserved\b/i,
  /^advertisement$/i,
  /^(follow us|related (posts|articles)|you may also like|read more|back to top)\s*:?$/i,
];

const LINK_ONLY = /^\s*(?:[-*+]\s+)?(?:\[[^\]]*\]\([^)]*\)[\s|·•,]*)+$/;

export interface Cleaned {
  markdown: string;
  removedLines: number;
}

export function cleanMarkdown(markdown: string): Cleaned {
  const lines = markdown.split('\n');
  const drop = new Array<boolean>(lines.length).fill(false);
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode || !line) continue;
    const plain = line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/^[#>*+\-\s]+/, '');
    if (plain.length < 200 && BOILERPLATE.some((re) => re.test(plain))) drop[i] = true;
  }
  // Three or more consecutive lines of nothing but links: a menu or a link farm, not prose.
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && LINK_ONLY.test(lines[j]!)) j++;
    if (j - i >= 3) for (let k = i; k < j; k++) drop[k] = true;
    i = j === i ? i + 1 : j;
  }
  const kept = lines.filter((_, i) => !drop[i]);
  return { markdown: kept.join('\n').replace(/\n{3,}/g, '\n\n').trim(), removedLines: drop.filter(Boolean).length };
}
