/** Static pages of the fixture site, keyed by path. Each takes the site's origin. */

const RED_DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAUAAAAFCAYAAACNbyblAAAAHElEQVQI12P4//8/w38GIAXDIBKE0DHxgljNBAAO9TXL0Y4OHwAAAABJRU5ErkJggg==';

export const pages: Record<string, (origin: string) => string> = {
  '/': (o) => `<!doctype html><html lang="en"><head><title>Fixture home</title></head><body>
<h1>Fixture site</h1>
<ul>
  <li><a href="/article">Article</a></li>
  <li><a href="/js-only">JS-only page</a></li>
  <li><a href="${o}/links">Links</a></li>
</ul></body></html>`,

  '/article': (o) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>The Quiet Art of Bread Baking</title>
  <meta name="description" content="A long read about sourdough, patience and ovens.">
  <meta name="keywords" content="bread, sourdough, baking">
  <meta name="robots" content="index, follow">
  <meta property="og:title" content="Bread Baking, Quietly">
  <meta property="og:description" content="Sourdough for the patient.">
  <meta property="og:image" content="/images/loaf.jpg">
  <meta property="og:site_name" content="Fixture Kitchen">
  <meta property="og:locale:alternate" content="fr_FR">
  <meta property="og:locale:alternate" content="de_DE">
  <meta property="article:published_time" content="2026-01-15T08:00:00Z">
  <meta name="twitter:card" content="summary_large_image">
  <link rel="canonical" href="${o}/article">
  <link rel="icon" href="/favicon.ico">
</head>
<body>
  <div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all cookies</button></div>
  <header class="site-header">
    <a href="/" class="logo">Fixture Kitchen</a>
    <nav><ul><li><a href="/recipes">Recipes</a></li><li><a href="/shop">Shop</a></li><li><a href="/about">About us</a></li></ul></nav>
  </header>
  <main>
    <article>
      <h1>The Quiet Art of Bread Baking</h1>
      <p class="byline">By Ada Baker</p>
      <p>Sourdough rewards patience. A starter needs <strong>days</strong> of feeding before it can raise a loaf, and every kitchen grows a slightly different culture.</p>
      <p>Feeding schedules are covered in <a href="/guides/starter">our starter guide</a>; the flour we use is milled by <a href="https://example.org/flour">a small flour mill</a> near the bakery, and <a href="//cdn.example.net/pdf/bread.pdf">the printable PDF</a> has every step of the method on one page.</p>
      <h2>What you need</h2>
      <ul>
        <li>Flour, water and salt</li>
        <li>A lively starter
          <ul><li>fed twice a day</li><li>kept at room temperature</li></ul>
        </li>
      </ul>
      <h2>Hydration table</h2>
      <table>
        <thead><tr><th>Flour</th><th>Water</th><th>Hydration</th></tr></thead>
        <tbody><tr><td>500 g</td><td>350 g</td><td>70%</td></tr><tr><td>500 g</td><td>400 g</td><td>80%</td></tr></tbody>
      </table>
      <pre><code class="language-python">def hydration(flour, water):
    return water / flour</code></pre>
      <blockquote>Bake the bread you want to eat.</blockquote>
      <img src="/images/crumb.jpg" alt="An open crumb">
      <img src="${RED_DOT}" alt="a red dot">
    </article>
  </main>
  <aside class="sidebar"><h3>Related posts</h3><ul><li><a href="/related/1">Ten cakes you must try</a></li></ul></aside>
  <footer class="site-footer"><p>© 2026 Fixture Kitchen. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
</body>
</html>`,

  '/js-only': () => `<!doctype html>
<html lang="en"><head><title>App shell</title></head>
<body>
  <div id="root"></div>
  <noscript>You need to enable JavaScript to run this app.</noscript>
  <script>
    document.getElementById('root').innerHTML =
      '<main><h1>Rendered by JavaScript</h1><p>This paragraph only exists after the script ran.</p></main>';
  </script>
</body></html>`,

  '/delayed': () => `<!doctype html>
<html><head><title>Delayed content</title></head>
<body><main><h1>Delayed content</h1><p id="late">loading</p></main>
<script>setTimeout(() => { document.getElementById('late').textContent = 'Arrived after a second.'; }, 1000);</script>
</body></html>`,

  '/links': (o) => `<!doctype html>
<html><head><title>Links of every kind</title><base href="${o}/docs/"></head>
<body><main><h1>Links</h1>
<a href="intro">relative to base</a>
<a href="/absolute-path">absolute path</a>
<a href="${o}/full-url">full URL</a>
<a href="//example.com/protocol-relative">protocol relative</a>
<a href="https://external.example.org/page?x=1#frag">external with query and fragment</a>
<a href="#section">fragment only</a>
<a href="mailto:hello@example.com">mail</a>
<a href="tel:+15550100">phone</a>
<a href="javascript:alert(1)">script</a>
<a href="intro">duplicate</a>
<a>no href</a>
<img src="pic.png" alt="relative image">
<img srcset="small.jpg 300w, large.jpg 1200w" src="fallback.jpg" alt="responsive">
</main></body></html>`,

  '/base64-images': () => `<!doctype html>
<html><head><title>Inline images</title></head>
<body><article><h1>Inline images</h1><p>A dot follows.</p><img src="${RED_DOT}" alt="inline red dot"><p>After the dot.</p></article></body></html>`,

  '/mobile-check': () => `<!doctype html>
<html><head><title>Device check</title><meta name="viewport" content="width=device-width"></head>
<body><main><h1>Device check</h1><p id="ua"></p><p id="w"></p><p id="lang"></p><p id="tz"></p></main>
<script>
  document.getElementById('ua').textContent = 'UA: ' + navigator.userAgent;
  document.getElementById('w').textContent = 'Width: ' + window.innerWidth;
  document.getElementById('lang').textContent = 'Language: ' + navigator.language;
  document.getElementById('tz').textContent = 'Zone: ' + Intl.DateTimeFormat().resolvedOptions().timeZone;
</script></body></html>`,

  '/tall': () => `<!doctype html>
<html><head><title>Tall page</title></head><body style="margin:0">
<main><h1>Tall page</h1><div style="height:3000px;background:linear-gradient(#fff,#38f)">scroll</div><p>Bottom</p></main>
</body></html>`,

  // A page with the furniture blockAds removes: a consent manager's banner, a generic cookie
  // notice, ad slots (AdSense, a GPT slot, an ad network frame), and content that only looks
  // like them (a cookie recipe, an "add to cart" button) and must stay.
  '/ads-and-cookies': () => `<!doctype html>
<html lang="en"><head><title>Ads and cookies</title></head>
<body class="has-cookie-banner has-ads">
  <div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" role="dialog" aria-label="Privacy">We value your privacy. ONETRUST-BANNER-TEXT <button>Accept All Cookies</button></div></div>
  <div class="cookieNotice__bar">GENERIC-COOKIE-NOTICE: this site uses cookies. <a href="/privacy">Learn more</a></div>
  <section role="dialog" aria-label="We use cookies"><p>DIALOG-COOKIE-TEXT choose your preferences.</p></section>
  <header><a href="/">Home</a></header>
  <div class="content-wrapper">
    <h1>Chocolate chip cookies</h1>
    <p>The best cookie recipe starts with brown butter and patience; this is our KEPT-CONTENT.</p>
    <div class="ad-slot"><ins class="adsbygoogle" data-ad-client="ca-pub-123" data-ad-slot="456">ADSENSE-SLOT-TEXT</ins></div>
    <div class="cookie-recipe"><h2>Recipe</h2><p>RECIPE-STAYS: flour, sugar, butter, chocolate.</p></div>
    <div id="div-gpt-ad-1234-0">GPT-SLOT-TEXT Advertisement</div>
    <aside class="sidebar-ad">SIDEBAR-AD-TEXT Buy now</aside>
    <iframe src="https://googleads.g.doubleclick.net/pagead/ads?client=ca-pub-1">AD-FRAME-TEXT</iframe>
    <button class="add-to-cart">ADD-TO-CART-STAYS</button>
    <p class="read-more">Read more about baking: ADDRESS-STAYS.</p>
  </div>
</body></html>`,

  // A manual's page: numbered sections in wrappers of their own (one titled "Comments", one
  // "See Also" that is a list of links), a labelled line of links, a list of links its text
  // introduces, and the manual's navigation around it.
  '/manual/lexical': (o) => `<!doctype html>
<html lang="en"><head><title>3.1. Lexical structure</title></head>
<body><div class="pager"><a href="${o}/manual/syntax">Prev</a> <a href="${o}/manual/">Up</a> <a href="${o}/manual/values">Next</a></div>
<div class="chapter-part" id="LEXICAL-STRUCTURE"><div class="title-wrap"><div><h2>3.1. Lexical structure</h2></div></div>
<p><strong>Source file:</strong> <a href="${o}/src/lexer.c">src/lexer.c</a></p>
<p>Input to the query language is a sequence of statements, each a sequence of tokens ended by a semicolon.</p>
<div class="part" id="LEXICAL-WORDS"><div class="title-wrap"><div><h3>3.1.1. Words and names</h3></div></div>
${[1, 2, 3, 4, 5, 6].map((n) => `<p>Rule ${n} of the lexer reads words and names: a word starts with a letter or an underscore, and later characters may be letters, digits or dollar signs, so the parser can tell keywords apart.</p>`).join('')}
<p>The kinds of token the lexer knows:</p><ul><li><a href="${o}/manual/keywords">Keywords and reserved words</a></li><li><a href="${o}/manual/operators">Operators and punctuation</a></li></ul></div>
<div class="part" id="LEXICAL-COMMENTS"><div class="title-wrap"><div><h3>3.1.2. Comments</h3></div></div>
<p>A comment starts with two dashes and runs to the end of the line: COMMENTS-SECTION-STAYS.</p><pre>SELECT 1; -- a comment</pre></div>
<div class="part" id="LEXICAL-SEE-ALSO"><div class="title-wrap"><div><h3>3.1.3. See Also</h3></div></div>
<p><a href="${o}/manual/values">Value expressions</a>, <a href="${o}/manual/calls">Function calls</a></p></div></div>
<div class="pager"><a href="${o}/manual/syntax">Prev</a> <a href="${o}/manual/">Home</a> <a href="${o}/manual/values">Next</a></div>
</body></html>`,
};
