/** The content sink of the html format: the kept elements with every attribute but event handlers. */
import type { ContentSink } from './content-sink.js';
import type { Frame } from './frame.js';
import { escapeAttr, escapeText, decodeAttr, requoteRaw } from './html-util.js';
import { IS_VOID, closeTagFor } from './tag-bits.js';
import type { AttrView } from './stream.js';
import type { Resolver } from './url.js';
import { SCRIPT_URL, imageTarget, linkTarget, resolveSrc } from './url-targets.js';

export class HtmlSink implements ContentSink {
  readonly markdown = false;

  constructor(
    private readonly out: string[],
    private readonly resolve: Resolver,
  ) {}

  mark(): void {}

  restore(): void {}

  open(name: string, attrs: AttrView, lang: string | undefined): void {
    let tag = `<${name}`;
    let sawClass = false;
    for (const [key, value] of attrs.entries()) {
      // Event handlers are script; they have no place in cleaned HTML.
      if (key.startsWith('on')) continue;
      let raw = value;
      if ((key === 'href' && (name === 'a' || name === 'area')) || key === 'src') {
        const resolved = key === 'href' ? linkTarget(this.resolve, raw) : resolveSrc(this.resolve, raw);
        if (resolved === undefined || SCRIPT_URL.test(resolved)) continue;
        tag += ` ${key}="${escapeAttr(resolved)}"`;
        continue;
      }
      // Script URLs can hide in any URL-valued attribute (action, formaction, poster, ...).
      if (raw.includes(':') && SCRIPT_URL.test(decodeAttr(raw))) continue;
      if (key === 'class' && lang !== undefined) {
        sawClass = true;
        if (!raw.split(/\s+/).includes(`language-${lang}`)) raw = `${raw} language-${lang}`;
      }
      tag += raw === '' ? ` ${key}` : ` ${key}="${requoteRaw(raw)}"`;
    }
    if (lang !== undefined && !sawClass) tag += ` class="language-${lang}"`;
    if (name === 'img' && attrs.get('src') === undefined) {
      const src = imageTarget(this.resolve, attrs);
      if (src !== undefined) tag += ` src="${escapeAttr(src)}"`;
    }
    this.out.push(tag + '>');
  }

  text(data: string): void {
    this.out.push(data);
  }

  close(name: string, frame: Frame, text: number): void {
    // A link with nothing to show (an icon font, a share button) renders as nothing.
    if (frame.link && this.isEmptyLink(frame, text)) this.out[frame.startChunk] = '';
    else if (!(frame.bits & IS_VOID)) this.out.push(closeTagFor(name));
  }

  /** Whether the link being closed holds no text and no image. */
  private isEmptyLink(frame: Frame, text: number): boolean {
    if (text > 32) return false;
    for (let i = frame.startChunk + 1; i < this.out.length; i++) {
      const c = this.out[i]!;
      if (c.charCodeAt(0) === 60) {
        if (c.startsWith('<img')) return false;
      } else if (c.trim() !== '') return false;
    }
    return true;
  }

  blankAlts(): void {}

  blankLooseAlts(): void {}

  blankCaptionAlt(): void {}

  dropUnpaired(): void {}

  /**
   * Makes a chosen subtree whose root only means something inside its parent (a layout table's
   * cell, a list item) convertible on its own: a cell is unwrapped, rows and items get their
   * container back.
   */
  standalone(html: string, root: string): string {
    switch (root) {
      case 'td':
      case 'th':
        return html.replace(/^<t[dh]\b[^>]*>/, '').replace(/<\/t[dh]>$/, '');
      case 'tr':
      case 'thead':
      case 'tbody':
      case 'tfoot':
        return `<table>${html}</table>`;
      case 'li':
        return `<ul>${html}</ul>`;
      case 'dt':
      case 'dd':
        return `<dl>${html}</dl>`;
      default:
        return html;
    }
  }

  /** The html format keeps the page's own markup as it is. */
  tidy(html: string): string {
    return html;
  }

  title(text: string): string {
    return `<h1>${escapeText(text)}</h1>\n`;
  }
}
