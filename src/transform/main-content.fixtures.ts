/** Options and a sample page the main-content tests share. */
import type { TransformOptions, TransformWants } from './types.js';

export const BASE = 'https://news.example.com/2024/story.html';
export const MD: TransformWants = { markdown: true, html: false, links: false, images: false };
export const opts = (o: Partial<TransformOptions> = {}): TransformOptions => ({
  baseUrl: BASE,
  onlyMainContent: true,
  includeTags: [],
  excludeTags: [],
  removeBase64Images: true,
  ...o,
});

export const ARTICLE_TEXT =
  'The council approved the new budget on Tuesday after a long debate about transport funding and the future of the city library.';

export const NEWS_PAGE = `<!doctype html><html lang="en"><head><title>Budget approved</title></head><body>
<div id="cookie-banner"><p>We use cookies to improve your experience.</p><button>Accept all</button></div>
<header class="site-header"><a href="/">Example News</a><nav><ul><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav></header>
<div class="layout">
  <article>
    <h1>Budget approved</h1>
    <p>${ARTICLE_TEXT}</p>
    <div class="share-buttons"><a href="https://twitter.com/share">Share on Twitter</a></div>
    <p>Members will meet again next month to discuss the details of the plan.</p>
  </article>
  <aside class="sidebar"><h2>Most read</h2><ul><li><a href="/a">Another story</a></li></ul></aside>
</div>
<footer><p>Copyright 2024 Example News</p><a href="/privacy">Privacy</a></footer>
</body></html>`;

export const prose = (n: number) =>
  `Paragraph ${n} of the story explains, in plain words, what happened and why it matters to readers.`;
/** A shop's product page: its title and three paragraphs of description, and `beside` after them. */
export const productPage = (title: string, beside: string) =>
  `<body><div><div><h1>${title}</h1>${[1, 2, 3].map((n) => `<p>${prose(n)}</p>`).join('')}</div>${beside}</div></body>`;
export const teasers = (label: string) =>
  `<div class="${label}"><h3>More from the site</h3>${[1, 2, 3]
    .map((n) => `<div><a href="/t${n}">Teaser headline number ${n}</a><p>A short teaser, to tempt you.</p></div>`)
    .join('')}</div>`;
