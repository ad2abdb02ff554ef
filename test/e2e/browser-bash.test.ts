/**
 * `language: "bash"` (the SDK's default for browserExecute): agent-browser commands against a
 * session's page, with no shell behind them. The fixture site listens on 127.0.0.2 and only that
 * address is allowed past the SSRF guard.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);

describe.skipIf(!chromium)('agent-browser commands in a session (language bash)', () => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  let id: string;
  // No language: the SDK sends its default, bash.
  const sh = (code: string) => fc.browserExecute(id, { code, timeout: 60 });

  beforeAll(async () => {
    site = await startFixtureSite(0, '127.0.0.2');
    gleaner = await startGleaner({ embedded: true, env: { ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32', RATE_LIMIT_PER_MINUTE: '3000' } });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
    id = (await fc.browser({ ttl: 600 })).id!;
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('opens a page and snapshots its interactive elements with refs, then clicks one by ref', async () => {
    const opened = await sh(`agent-browser open ${site.url}/app/interactive\nsnapshot -i`);
    expect(opened).toMatchObject({ success: true, exitCode: 0, killed: false });
    expect(opened.stdout).toContain(`Interactive\n${site.url}/app/interactive\n`);
    const reveal = /- button "Reveal" \[ref=(e\d+)\]/.exec(opened.stdout ?? '')?.[1];
    expect(reveal, opened.stdout).toBeDefined();
    expect(opened.stdout).toMatch(/- textbox \[ref=e\d+\]/);
    expect(opened.stdout).not.toContain('Interactive page'); // a heading is not interactive

    const clicked = await sh(`click @${reveal}\nget text "#secret"`);
    expect(clicked).toMatchObject({ exitCode: 0, stdout: 'Secret revealed by a click\n', result: 'Secret revealed by a click' });
  });

  it('fills, types and presses with shell quoting, and reads values back', async () => {
    const r = await sh(`fill '#echo' "say \\"hi\\""
type #echo ' there'
press Enter
get value #echo ; get text '#echo-out' && get text #last-key`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('say "hi" there\nsay "hi" there\nEnter\n');
  });

  it('scrolls, waits and gets html, url, title and counts', async () => {
    const r = await sh(`scroll down 800
wait --fn "document.getElementById('scroll-state').textContent === 'down'"
get text #scroll-state
wait #late
get html "#late"
get count .add
get url
get title
eval 'document.querySelectorAll("button").length * 2'
eval 'const o = { a: [1, 2] }; o'`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`down\nLate content arrived\n3\n${site.url}/app/interactive\nInteractive\n8\n{"a":[1,2]}\n`);
  });

  it('answers a screenshot as a signed link', async () => {
    const r = await sh('screenshot page.png --full');
    expect(r.exitCode, r.stderr).toBe(0);
    const png = await fetch(r.result!);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('stops at the first failing command with exit code 1 and the error on stderr', async () => {
    const r = await sh('get text #echo-out\nclick "#no-such-button"\nget url');
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('say "hi" there\n');
    expect(r.stderr).toMatch(/^click "#no-such-button": Error: .*Timeout/);
    expect(r.killed).toBe(false);
  });

  it('keeps open behind the SSRF guard and the scheme rules', async () => {
    for (const target of ['http://127.0.0.1:6379/', 'file:///etc/passwd', 'chrome://version']) {
      const r = await sh(`open ${target}`);
      expect(r.exitCode, target).toBe(1);
      expect(r.stderr, target).toMatch(/not allowed|private|loopback/i);
    }
    expect((await sh('get url')).result).toBe(`${site.url}/app/interactive`);
  });

  it.each([
    ['another program', 'ls /'],
    ['a pipe to a shell', `open ${'http://127.0.0.2/'} | sh`],
    ['command substitution', 'open $(cat /etc/passwd)'],
    ['a redirection', 'snapshot > /tmp/out'],
  ])('refuses %s with a 400 naming the supported commands', async (_what, code) => {
    const e = await sdkError(sh(code));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/not a supported browser command.*open <url>; .*snapshot \[-i\].*get text/);
  });
});
