/**
 * Interactive browser sessions through the official SDK: create, execute, list, delete, expiry,
 * the per-team cap, interact on a scrape's page, profiles that keep a login, and the sandbox
 * holding against escape attempts. The fixture site listens on 127.0.0.2 and only that address
 * is allowed past the SSRF guard, so 127.0.0.1 (where Redis and the API live) stays refused.
 */
import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/scrape/engines/chromium.js';
import { FIXTURE_USER } from '../fixture-site/browser-pages.js';
import { startFixtureSite, type FixtureSite } from '../fixture-site/server.js';
import { startGleaner, type TestGleaner } from '../helpers/gleaner.js';
import { sdkError } from '../helpers/sdk-error.js';

const chromium = findChromium(process.env.CHROMIUM_PATH);
const distributed = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const modes = [{ name: 'embedded', embedded: true }, ...(distributed ? [{ name: 'distributed', embedded: false }] : [])];
const MAX_SESSIONS = 3;

describe.skipIf(!chromium).each(modes)('browser sessions ($name)', ({ embedded }) => {
  let site: FixtureSite;
  let gleaner: TestGleaner;
  let fc: Firecrawl;
  const run = (id: string, code: string, timeout = 30) => fc.browserExecute(id, { code, language: 'node', timeout });

  beforeAll(async () => {
    site = await startFixtureSite(0, '127.0.0.2');
    gleaner = await startGleaner({
      embedded,
      env: { ALLOW_PRIVATE_ADDRESSES: '127.0.0.2/32', RATE_LIMIT_PER_MINUTE: '3000', BROWSER_SESSIONS_PER_TEAM: String(MAX_SESSIONS) },
    });
    fc = new Firecrawl({ apiKey: gleaner.key, apiUrl: gleaner.url });
  });
  afterAll(async () => {
    await gleaner?.close();
    await site?.close();
  });

  it('creates a session, runs Playwright-style code in it, lists it and deletes it', async () => {
    const created = await fc.browser({ ttl: 120, activityTtl: 60 });
    expect(created.success).toBe(true);
    const id = created.id!;
    expect(Date.parse(created.expiresAt!)).toBeGreaterThan(Date.now() + 100_000);

    const first = await run(
      id,
      `const r = await page.goto(${JSON.stringify(`${site.url}/app/interactive`)});
console.log('status', r.status());
await page.click('#reveal');
await page.locator('#echo').fill('typed');
await page.getByText('Add B').click();
console.error('to stderr');
return { title: await page.title(), url: page.url(), secret: await page.textContent('#secret'), echo: await page.inputValue('#echo'),
  added: await page.locator('#added li').allTextContents(), buttons: await page.locator('.add').count(),
  doubled: await page.evaluate((n) => n * 2, 21), expr: await page.evaluate('document.querySelectorAll("button").length') };`,
    );
    expect(first).toMatchObject({ success: true, exitCode: 0, killed: false, truncated: false, stdout: 'status 200\n', stderr: 'to stderr\n' });
    expect(JSON.parse(first.result!)).toEqual({
      title: 'Interactive',
      url: `${site.url}/app/interactive`,
      secret: 'Secret revealed by a click',
      echo: 'typed',
      added: ['Clicked Add B'],
      buttons: 3,
      doubled: 42,
      expr: 4,
    });

    // The page stays where the last execute left it.
    const second = await run(id, 'const shot = await page.screenshot({ fullPage: true, path: "/tmp/escape.png" }); [page.url(), shot]');
    const [url, shot] = JSON.parse(second.result!) as [string, string];
    expect(url).toBe(`${site.url}/app/interactive`);
    const png = await fetch(shot);
    expect(png.headers.get('content-type')).toBe('image/png');

    const active = await fc.listBrowsers({ status: 'active' });
    expect(active.sessions!.map((s) => s.id)).toContain(id);

    const deleted = await fc.deleteBrowser(id);
    expect(deleted).toMatchObject({ success: true, status: 'destroyed' });
    expect(deleted.sessionDurationMs).toBeGreaterThan(0);
    const destroyed = await fc.listBrowsers({ status: 'destroyed' });
    expect(destroyed.sessions!.map((s) => s.id)).toContain(id);
    expect((await fc.listBrowsers({ status: 'active' })).sessions!.map((s) => s.id)).not.toContain(id);

    const gone = await sdkError(run(id, '1'));
    expect(gone.status).toBe(404);
    expect(gone.message).toBe('Browser session not found.');
  });

  it('answers a clear 400 for python, and for bash (the SDK default) that is no browser command', async () => {
    const { id } = await fc.browser();
    try {
      const bash = await sdkError(fc.browserExecute(id!, { code: 'ls /' }));
      expect(bash.status).toBe(400);
      expect(bash.message).toContain("'ls' is not a supported command");
      expect(bash.message).toContain('open <url>');
      const python = await sdkError(fc.browserExecute(id!, { code: 'print(1)', language: 'python' }));
      expect(python.status).toBe(400);
    } finally {
      await fc.deleteBrowser(id!);
    }
  });

  describe('the sandbox', () => {
    let id: string;
    beforeAll(async () => {
      id = (await fc.browser()).id!;
      await run(id, `await page.goto(${JSON.stringify(`${site.url}/app/interactive`)})`);
    });
    afterAll(async () => {
      await fc.deleteBrowser(id);
    });

    it.each([
      ['reading /etc/passwd', 'require("fs").readFileSync("/etc/passwd", "utf8")'],
      ['reading /etc/passwd by import', 'const fs = await import("fs"); fs.readFileSync("/etc/passwd", "utf8")'],
      ['reading process.env', 'JSON.stringify(process.env)'],
      ['reading the environment through globalThis', 'JSON.stringify(globalThis.process.env)'],
      ['spawning a process', 'require("child_process").execSync("cat /etc/passwd").toString()'],
      ['escaping through the Function constructor', 'page.goto.constructor("return process")().mainModule.require("fs")'],
      ['connecting to Redis directly', 'await fetch("http://127.0.0.1:6379/")'],
    ])('fails at %s', async (_what, code) => {
      const r = await run(id, code);
      expect(r.exitCode).toBe(1);
      expect(r.result).toBeUndefined();
      expect(r.stderr).toMatch(/ReferenceError|TypeError|not defined|not a function|cannot read/i);
      expect(`${r.stdout}${r.stderr}`).not.toContain('root:x:0');
    });

    it('refuses browser navigation to 127.0.0.1:6379 and to file: and chrome: URLs', async () => {
      for (const target of ['http://127.0.0.1:6379/', 'file:///etc/passwd', 'chrome://version', 'view-source:file:///etc/passwd']) {
        const r = await run(id, `await page.goto(${JSON.stringify(target)})`);
        expect(r.exitCode, target).toBe(1);
        expect(r.stderr, target).toMatch(/not allowed|private|loopback/i);
      }
      // From inside the page, too: the guard sits on every request the browser makes.
      const fromPage = await run(id, `await page.evaluate(async () => { try { await fetch('http://127.0.0.1:6379/'); return 'connected'; } catch (e) { return 'refused'; } })`);
      expect(fromPage.result).toBe('refused');
      const jump = await run(id, `await page.evaluate(() => { location.href = 'file:///etc/passwd'; }); await page.waitForTimeout(300); await page.content()`);
      expect(jump.result ?? '').not.toContain('root:x:0');
      const still = await run(id, 'page.url()');
      expect(still.result).toMatch(/^http:\/\/127\.0\.0\.2/);
    });

    it('kills runaway code at its time limit and the session keeps working', async () => {
      const loop = await run(id, 'while (true) {}', 2);
      expect(loop.killed).toBe(true);
      expect(loop.exitCode).not.toBe(0);
      const hog = await run(id, 'const a = []; for (;;) a.push(new Uint8Array(1 << 20));', 30);
      expect(hog.killed).toBe(true);
      const ok = await run(id, 'await page.title()');
      expect(ok.result).toBe('Interactive');
    });
  });

  it('caps a team at its concurrent sessions with 429 Concurrency limit reached', async () => {
    const ids: string[] = [];
    try {
      for (let i = 0; i < MAX_SESSIONS; i++) ids.push((await fc.browser()).id!);
      const over = await sdkError(fc.browser());
      expect(over.status).toBe(429);
      expect(over.message).toBe('Concurrency limit reached');
    } finally {
      for (const id of ids) await fc.deleteBrowser(id);
    }
    const again = await fc.browser();
    await fc.deleteBrowser(again.id!);
  });

  it('ends a session after activityTtl without executes', async () => {
    const { id } = await fc.browser({ activityTtl: 10 });
    const deadline = Date.now() + 20_000;
    let status = 'active';
    while (status === 'active' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await fc.listBrowsers()).sessions!.find((s) => s.id === id)?.status ?? 'missing';
    }
    expect(status).toBe('destroyed');
    expect((await sdkError(run(id!, '1'))).status).toBe(404);
    expect(gleaner.rt.browserSessions.openCount()).toBe(0);
  });

  it('ends a session at its ttl even while it is being used', async () => {
    // The public ttl is at least 30 s; the registry takes any, so the test opens one through it.
    const { id } = await gleaner.rt.browserSessions.create(gleaner.teamId, { ttlMs: 2_000, activityTtlMs: 60_000 });
    const deadline = Date.now() + 10_000;
    let status = 'active';
    while (status === 'active' && Date.now() < deadline) {
      await run(id, '1').catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      status = (await fc.listBrowsers()).sessions!.find((s) => s.id === id)?.status ?? 'missing';
    }
    expect(status).toBe('destroyed');
    expect((await sdkError(run(id, '1'))).status).toBe(404);
  });

  it('continues in a scrape’s page with interact, then stops', async () => {
    const doc = await fc.scrape(`${site.url}/app/interactive`, { formats: ['markdown'] });
    const scrapeId = doc.metadata!.scrapeId!;
    const one = await fc.interact(scrapeId, { code: 'await page.click("#reveal"); await page.textContent("#secret")' });
    expect(one.result).toBe('Secret revealed by a click');
    const two = await fc.interact(scrapeId, { code: 'await page.isVisible("#secret")', language: 'node' });
    expect(two.result).toBe('true');
    const stopped = await fc.stopInteraction(scrapeId);
    expect(stopped.status).toBe('destroyed');
    const unknown = await sdkError(fc.interact('00000000-0000-4000-8000-000000000000', { code: '1' }));
    expect(unknown.status).toBe(404);
    const prompt = await sdkError(fc.interact(scrapeId, { prompt: 'click reveal' }));
    expect(prompt.status).toBe(400);
  });

  it('keeps a login in a profile: saved by one session, used by the next and by a scrape', async () => {
    const name = `acct-${Date.now()}`;
    const a = await fc.browser({ profile: { name, saveChanges: true } });
    const conflict = await sdkError(fc.browser({ profile: { name, saveChanges: true } }));
    expect(conflict.status).toBe(409);
    expect(conflict.message).toContain('Conflict');
    const login = await run(
      a.id!,
      `await page.goto(${JSON.stringify(`${site.url}/app/login`)});
await page.fill('#username', ${JSON.stringify(FIXTURE_USER.username)});
await page.fill('#password', ${JSON.stringify(FIXTURE_USER.password)});
await page.click('#login-btn');
await page.waitForSelector('#note');
await page.textContent('h1')`,
    );
    expect(login.result).toBe('Welcome back, alice');
    await fc.deleteBrowser(a.id!);

    const b = await fc.browser({ profile: { name, saveChanges: false } });
    // A reader does not hold the profile: another reader may open it alongside.
    const c = await fc.browser({ profile: { name, saveChanges: false } });
    const next = await run(b.id!, `await page.goto(${JSON.stringify(`${site.url}/app/account`)}); [await page.textContent('h1'), await page.textContent('#note-value')]`);
    expect(JSON.parse(next.result!)).toEqual(['Welcome back, alice', 'remember the milk']);
    await fc.deleteBrowser(b.id!);
    await fc.deleteBrowser(c.id!);

    const scraped = await fc.scrape(`${site.url}/app/account`, { profile: { name, saveChanges: false } });
    expect(scraped.markdown).toContain('Welcome back, alice');
    const fresh = await fc.scrape(`${site.url}/app/account`, { profile: { name: `${name}-other`, saveChanges: false } });
    expect(fresh.markdown).toContain('Please log in');
  });
});
