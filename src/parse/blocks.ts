/**
 * The structure every non-HTML parser produces (PDF layout, OCR, spreadsheets, slides, CSV),
 * and its two renderings: markdown and HTML. HTML-like sources (HTML, DOCX) skip this and go
 * through the page transform instead.
 */

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'code'; text: string };

/** Escapes characters that would otherwise start markdown syntax at the beginning of a line. */
function inline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([\\`*[\]])/g, '\\$1')
    .replace(/<(?=[A-Za-z/!])/g, '\\<')
    .replace(/^(#{1,6}\s|[-+]\s|\d+[.)]\s|>)/, '\\$1');
}

const cell = (text: string) => inline(text).replace(/\|/g, '\\|');

export function tableMarkdown(rows: string[][]): string {
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => cell(r[i] ?? ''));
  const line = (r: string[]) => `| ${pad(r).join(' | ')} |`;
  const [head, ...body] = rows;
  return [line(head!), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...body.map(line)].join('\n');
}

export function blockMarkdown(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(Math.min(Math.max(b.level, 1), 6))} ${inline(b.text)}`;
    case 'paragraph':
      return inline(b.text);
    case 'list':
      return b.items.map((item, i) => `${b.ordered ? `${i + 1}.` : '-'} ${inline(item)}`).join('\n');
    case 'table':
      return tableMarkdown(b.rows);
    case 'code':
      return '```\n' + b.text.replace(/```/g, '`\u200b``') + '\n```';
  }
}

export const blocksMarkdown = (blocks: Block[]) => blocks.map(blockMarkdown).filter((s) => s.length > 0).join('\n\n');

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function blockHtml(b: Block): string {
  switch (b.kind) {
    case 'heading': {
      const h = Math.min(Math.max(b.level, 1), 6);
      return `<h${h}>${esc(b.text)}</h${h}>`;
    }
    case 'paragraph':
      return `<p>${esc(b.text)}</p>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      return `<${tag}>${b.items.map((i) => `<li>${esc(i)}</li>`).join('')}</${tag}>`;
    }
    case 'table': {
      const [head, ...body] = b.rows;
      const row = (r: string[], tag: string) => `<tr>${r.map((c) => `<${tag}>${esc(c)}</${tag}>`).join('')}</tr>`;
      return `<table><thead>${head ? row(head, 'th') : ''}</thead><tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
    }
    case 'code':
      return `<pre><code>${esc(b.text)}</code></pre>`;
  }
}

export const blocksHtml = (blocks: Block[]) => blocks.map(blockHtml).join('\n');
