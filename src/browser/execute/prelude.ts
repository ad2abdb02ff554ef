/**
 * The script run in every sandbox before the caller's code: `console`, and a `page` shaped like
 * Playwright's, whose every method is a call through `__host` with JSON arguments. Locators are
 * plain descriptions (a list of steps) that the host turns back into Playwright locators.
 */
export const prelude = (pageUrl: string): string => String.raw`
(() => {
  const g = globalThis;
  const host = __host, print = __print;
  delete g.__host; delete g.__print;
  const fmt = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return (v.name || 'Error') + ': ' + v.message;
    try { const s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch { return String(v); }
  };
  const out = (stream) => (...args) => print(stream, args.map(fmt).join(' ') + '\n');
  g.console = { log: out(1), info: out(1), debug: out(1), warn: out(2), error: out(2) };
  const call = async (method, ...args) => {
    const text = await host(method, JSON.stringify(args, (k, v) => (typeof v === 'function' ? undefined : v)));
    const r = JSON.parse(text);
    state.url = r.u;
    return r.v;
  };
  const state = { url: ${JSON.stringify(pageUrl)} };
  const source = (fn) => (typeof fn === 'function' ? String(fn) : String(fn));
  const response = (r) => r && ({ status: () => r.status, ok: () => r.status >= 200 && r.status < 300, url: () => r.url, headers: () => r.headers, statusText: () => r.statusText });

  const makeLocator = (steps) => {
    const on = (method) => (...args) => call('locator', steps, method, ...args);
    const loc = {
      locator: (selector) => makeLocator([...steps, { css: String(selector) }]),
      getByText: (text, o) => makeLocator([...steps, { text: String(text), exact: !!(o && o.exact) }]),
      getByRole: (role, o) => makeLocator([...steps, { role: String(role), name: o && o.name, exact: !!(o && o.exact) }]),
      getByPlaceholder: (text, o) => makeLocator([...steps, { placeholder: String(text), exact: !!(o && o.exact) }]),
      getByLabel: (text, o) => makeLocator([...steps, { label: String(text), exact: !!(o && o.exact) }]),
      getByTestId: (id) => makeLocator([...steps, { testId: String(id) }]),
      nth: (i) => makeLocator([...steps, { nth: Number(i) }]),
      first: () => makeLocator([...steps, { nth: 0 }]),
      last: () => makeLocator([...steps, { nth: -1 }]),
      evaluate: (fn, arg) => call('locator', steps, 'evaluate', source(fn), arg),
      evaluateAll: (fn, arg) => call('locator', steps, 'evaluateAll', source(fn), arg),
      screenshot: on('screenshot'),
    };
    for (const m of ['click', 'dblclick', 'fill', 'type', 'pressSequentially', 'press', 'hover', 'focus', 'check', 'uncheck', 'selectOption',
      'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible', 'isHidden', 'isChecked', 'isEnabled',
      'count', 'allTextContents', 'allInnerTexts', 'waitFor', 'scrollIntoViewIfNeeded', 'clear']) loc[m] = on(m);
    return loc;
  };

  const simple = (m) => (...args) => call(m, ...args);
  const page = {
    goto: async (url, o) => response(await call('goto', String(url), o)),
    reload: async (o) => response(await call('reload', o)),
    goBack: async (o) => response(await call('goBack', o)),
    goForward: async (o) => response(await call('goForward', o)),
    url: () => state.url,
    evaluate: (fn, arg) => call('evaluate', source(fn), typeof fn === 'function', arg),
    $eval: (sel, fn, arg) => call('locator', [{ css: String(sel) }, { nth: 0 }], 'evaluate', source(fn), arg),
    $$eval: (sel, fn, arg) => call('locator', [{ css: String(sel) }], 'evaluateAll', source(fn), arg),
    locator: (selector) => makeLocator([{ css: String(selector) }]),
    getByText: (t, o) => makeLocator([]).getByText(t, o),
    getByRole: (r, o) => makeLocator([]).getByRole(r, o),
    getByPlaceholder: (t, o) => makeLocator([]).getByPlaceholder(t, o),
    getByLabel: (t, o) => makeLocator([]).getByLabel(t, o),
    getByTestId: (id) => makeLocator([]).getByTestId(id),
    keyboard: { type: simple('keyboard.type'), press: simple('keyboard.press'), down: simple('keyboard.down'), up: simple('keyboard.up'), insertText: simple('keyboard.insertText') },
    mouse: { click: simple('mouse.click'), move: simple('mouse.move'), down: simple('mouse.down'), up: simple('mouse.up'), wheel: simple('mouse.wheel') },
  };
  for (const m of ['content', 'title', 'click', 'dblclick', 'fill', 'type', 'press', 'hover', 'focus', 'check', 'uncheck', 'selectOption',
    'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible', 'isHidden', 'waitForSelector', 'waitForTimeout',
    'waitForLoadState', 'waitForURL', 'waitForFunction', 'screenshot', 'pdf', 'setViewportSize', 'viewportSize', 'cookies', 'setContent']) page[m] = simple(m);
  g.page = page;
  g.browser = undefined;
  g.context = { cookies: simple('cookies'), clearCookies: simple('clearCookies') };
  g.sleep = (ms) => call('waitForTimeout', ms);
  g.__run = (p) => p;
})();
`;
