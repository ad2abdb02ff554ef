/**
 * A reference manual's page, as documentation generators write one: a function table whose
 * cells hold a signature paragraph and a description paragraph, a two-column table of names and
 * explanations, and inline markup that nests code (a mail address linked inside code, a power
 * written as code inside code, key presses inside a key press, code spans side by side).
 */
export const manualPages: Record<string, (origin: string) => string> = {
  '/manual/text-functions': () => `<!doctype html>
<html lang="en"><head><title>5.2. Text Functions</title></head>
<body>
<div class="navheader"><a href="/manual/">Manual home</a> · <a href="/manual/numbers">Prev</a> · <a href="/manual/dates">Next</a></div>
<main><section class="sect1" id="text-functions">
  <h2>5.2. Text Functions</h2>
  <p>This section describes the functions that examine and change text values. Each takes its
  arguments in the order shown and returns the type after the arrow.</p>
  <div class="table"><table class="table"><thead><tr><th class="func_table_entry"><p class="func_signature">Function</p><p>Description</p></th></tr></thead>
  <tbody>
    <tr><td class="func_table_entry"><p class="func_signature"><code class="function">concat_ws</code> ( <code>sep</code> <code>text</code>, <code>val</code> <code>text</code> ) → <code>text</code></p><p>SIGNATURE-KEPT: joins the values with the separator between them.</p></td></tr>
    <tr><td class="func_table_entry"><p class="func_signature"><code>text</code> <code>||</code> <code>text</code> → <code>text</code></p><p>Joins two strings.</p></td></tr>
  </tbody></table></div>
  <p>The comparison modes a pattern may use:</p>
  <table class="informaltable"><thead><tr><th>Mode</th><th>Meaning</th></tr></thead>
  <tbody>
    <tr><td><code>strict</code></td><td><p>Letters must match in case.</p><p>SECOND-COLUMN-KEPT: accents count too.</p></td></tr>
    <tr><td><code>loose</code></td><td><p>Case and accents are ignored.</p></td></tr>
  </tbody></table>
  <p>Send reports to <code>&lt;<a href="mailto:bugs@manual.example">bugs@manual.example</a>&gt;</code>. A table of
  <code>10^<em><code>n</code></em></code> rows takes <code>O</code><code>(n)</code> time; press
  <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to stop a long one.</p>
</section></main>
<div class="navfooter"><a href="/manual/numbers">Prev</a> · <a href="/manual/">Up</a> · <a href="/manual/dates">Next</a></div>
</body></html>`,
};
