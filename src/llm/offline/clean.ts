/**
 * `onlyCleanContent` without a model: drops what the main-content rules left of the page's chrome
 * in the markdown — cookie and newsletter prompts, share bars, "skip to content", copyright lines,
 * runs of bare links — and keeps everything else as it was.
 */

const BOILERPLATE = [
  // What a cookie prompt says, not what a recipe does with cookies ("allow the cookies to cool").
  /\b(we|this (site|website)|our (site|website)) (uses?|sets?) cookies\b/i,
  /\bcookies? (policy|settings|preferences|notice|consent)\b/i,
  /\b(accept|reject|decline) (all )?cookies\b/i,
  /\b(accept|reject) all\b/i,
  /\bsubscribe\b.*\b(newsletter|inbox|updates)\b/i,
  /\bsign up for (our|the) newsletter\b/i,
  /^share (this|on)\b/i,
  /^(share|tweet|pin it|email)(\s*[|·•/]\s*(facebook|twitter|x|linkedin|email|reddit|whatsapp|pinterest))+\s*$/i,
  /^skip to (main )?content$/i,
  /(©|\(c\)|copyright)\s*\d{4}/i,
  /\ball rights reserved\b/i,
  // The same prompts and notices on pages in German, French, Spanish, Italian, Dutch and Portuguese.
  /\b(wir verwenden|diese website verwendet|nous utilisons des|ce site utilise des|utilizamos|este sitio( web)? utiliza|utilizziamo i|questo sito utilizza i|wij gebruiken|deze website gebruikt|este site utiliza) cookies?\b/i,
  /\b(cookie-einstellungen|paramètres des cookies|configuración de cookies|impostazioni dei cookie|cookie-instellingen|definições de cookies)\b/i,
  /^(alle akzeptieren|tout accepter|aceptar todas?|accetta tutti|alles accepteren|aceitar todos)$/i,
  /\b(alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|tutti i diritti riservati|alle rechten voorbehouden|todos os direitos reservados)\b/i,
  /^(advertisement|anzeige|werbung|publicité|publicidad|pubblicità|advertentie|publicidade)$/i,
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
  // Code blocks are the page's content whatever they hold: their lines, fences included, stay.
  const code = new Array<boolean>(lines.length).fill(false);
  let inCode = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const fence = line.startsWith('```') || line.startsWith('~~~');
    code[i] = inCode || fence;
    if (fence) inCode = !inCode;
    if (code[i] || !line) continue;
    const plain = line.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/^[#>*+\-\s]+/, '');
    if (plain.length < 200 && BOILERPLATE.some((re) => re.test(plain))) drop[i] = true;
  }
  // Three or more consecutive lines of nothing but links: a menu or a link farm, not prose.
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j < lines.length && !code[j] && LINK_ONLY.test(lines[j]!)) j++;
    if (j - i >= 3) for (let k = i; k < j; k++) drop[k] = true;
    i = j === i ? i + 1 : j;
  }
  const kept = lines.filter((_, i) => !drop[i]);
  return { markdown: kept.join('\n').replace(/\n{3,}/g, '\n\n').trim(), removedLines: drop.filter(Boolean).length };
}
