/**
 * Pages that need a real browser driven by actions or code: a login flow with a session cookie
 * and localStorage, an interactive page (typing, clicks, late content, scrolling), and a page
 * with an ad script and a cookie-consent banner.
 */
import type http from 'node:http';

const SESSION_COOKIE = 'fixture_sid';
const SESSION_VALUE = 'alice-7f3a';
export const FIXTURE_USER = { username: 'alice', password: 'hunter2' };

const send = (res: http.ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(body);
};

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

function loggedIn(req: http.IncomingMessage): boolean {
  return (req.headers.cookie ?? '').split(/;\s*/).includes(`${SESSION_COOKIE}=${SESSION_VALUE}`);
}

const LOGIN = page(
  'Sign in',
  `<h1>Sign in</h1>
<form method="post" action="/app/session">
  <label>User <input id="username" name="username" autocomplete="off"></label>
  <label>Password <input id="password" name="password" type="password"></label>
  <button id="login-btn" type="submit">Sign in</button>
</form>`,
);

const ACCOUNT = page(
  'Account',
  `<h1>Welcome back, alice</h1><p id="note">Saved note: <span id="note-value">none</span></p>
<script>
  const v = localStorage.getItem('note');
  if (v) document.getElementById('note-value').textContent = v;
  else localStorage.setItem('note', 'remember the milk');
</script>`,
);

const INTERACTIVE = page(
  'Interactive',
  `<h1>Interactive page</h1>
<input id="echo" autocomplete="off"><p>Echo: <span id="echo-out"></span></p><p>Keys: <span id="keys">0</span></p>
<p>Last key: <span id="last-key">none</span></p>
<button id="reveal">Reveal</button><p id="secret" hidden>Secret revealed by a click</p>
<button class="add">Add A</button><button class="add">Add B</button><button class="add">Add C</button>
<ul id="added"></ul>
<div id="box" style="height:100px;overflow:auto"><div style="height:1000px">Box content</div></div>
<p>Box: <span id="box-state">still</span></p>
<p>Scroll: <span id="scroll-state">top</span></p>
<div style="height:4000px"></div><p id="bottom">The bottom of the page</p>
<script>
  const echo = document.getElementById('echo');
  let keys = 0;
  echo.addEventListener('keydown', (e) => { keys++; document.getElementById('keys').textContent = String(keys); document.getElementById('last-key').textContent = e.key; });
  echo.addEventListener('input', () => { document.getElementById('echo-out').textContent = echo.value; });
  document.getElementById('reveal').addEventListener('click', () => { document.getElementById('secret').hidden = false; });
  for (const b of document.querySelectorAll('.add')) b.addEventListener('click', () => {
    const li = document.createElement('li'); li.textContent = 'Clicked ' + b.textContent; document.getElementById('added').appendChild(li);
  });
  document.getElementById('box').addEventListener('scroll', () => { document.getElementById('box-state').textContent = 'scrolled'; });
  window.addEventListener('scroll', () => { document.getElementById('scroll-state').textContent = window.scrollY > 100 ? 'down' : 'top'; });
  setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Late content arrived'; document.querySelector('main').appendChild(p); }, 800);
</script>`,
);

const ADS = page(
  'Ads and consent',
  `<h1>News with ads</h1><p>The story itself is what matters here.</p>
<div id="slot"></div>
<div id="onetrust-banner-sdk"><p>We use cookies to improve your experience. Accept all?</p><button>Accept</button></div>
<script src="/adserver/ad.js"></script>`,
);

/**
 * A page that can open an RTCPeerConnection with a STUN server named by the caller: STUN is UDP,
 * which neither request routing nor an HTTP proxy sees. `probeWebRtc(hostPort)` resolves once ICE
 * gathering is over (a fallback timer ends it where gathering never finishes) with the candidates.
 */
const WEBRTC = page(
  'WebRTC probe',
  `<h1>WebRTC probe</h1><p id="ice-state">idle</p>
<script>
  window.probeWebRtc = async (stun) => {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:' + stun }] });
    const found = [];
    pc.onicecandidate = (e) => { if (e.candidate && e.candidate.candidate) found.push(e.candidate.candidate); };
    pc.createDataChannel('probe');
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((done) => {
      if (pc.iceGatheringState === 'complete') return done();
      pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') done(); };
      setTimeout(done, 15000);
    });
    pc.close();
    const p = document.createElement('p'); p.id = 'ice-done'; p.textContent = 'ICE gathering over: ' + found.length + ' candidates';
    document.querySelector('main').appendChild(p);
    return found;
  };
  const stun = new URLSearchParams(location.search).get('stun');
  if (stun) window.probeWebRtc(stun);
</script>`,
);

/** A small document whose script grows the DOM to `chars` characters of text. */
const grow = (chars: number) =>
  page('Grown by script', `<h1>Grown by script</h1><div id="grown"></div><script>document.getElementById('grown').textContent = 'g'.repeat(${chars});</script>`);

const AD_SCRIPT = `document.getElementById('slot').innerHTML = '<p>ADVERT LOADED: buy now</p>';`;

/** Serves the browser pages; false when the path is not one of them. */
export function serveBrowserPages(req: http.IncomingMessage, path: string, res: http.ServerResponse): boolean {
  switch (path) {
    case '/app/login':
      send(res, LOGIN);
      return true;
    case '/app/session': {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('username') === FIXTURE_USER.username && form.get('password') === FIXTURE_USER.password) {
          res.writeHead(302, { location: '/app/account', 'set-cookie': `${SESSION_COOKIE}=${SESSION_VALUE}; Path=/; HttpOnly; Max-Age=3600` });
          res.end();
        } else send(res, page('Sign in failed', '<h1>Wrong user or password</h1>'), 401);
      });
      return true;
    }
    case '/app/account':
      if (loggedIn(req)) send(res, ACCOUNT);
      else send(res, page('Sign in required', '<h1>Please log in</h1><p>You are not signed in.</p>'));
      return true;
    case '/app/interactive':
      send(res, INTERACTIVE);
      return true;
    case '/app/ads':
      send(res, ADS);
      return true;
    case '/app/webrtc':
      send(res, WEBRTC);
      return true;
    case '/app/link': {
      // A page whose one link goes wherever the caller says (SSRF probes through a click).
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/';
      send(res, page('Link', `<h1>One link</h1><a id="away" href="${to.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}">Go away</a>`));
      return true;
    }
    case '/app/grow': {
      const chars = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('chars') ?? 1000);
      send(res, grow(Number.isSafeInteger(chars) && chars >= 0 ? Math.min(chars, 500_000_000) : 1000));
      return true;
    }
    case '/adserver/ad.js':
      res.writeHead(200, { 'content-type': 'application/javascript' });
      res.end(AD_SCRIPT);
      return true;
    default:
      return false;
  }
}
