/**
 * Emulation: the device, language, place and proxy a fetch asks the browser to present. A
 * context is created for one emulation and reused only for fetches that ask for the same one.
 */
import type { BrowserContextOptions } from 'playwright-core';
import type { FetchRequest, LocationRequest } from '../../types.js';
import { headerValue } from './caller-headers.js';
import { COUNTRIES } from './countries.js';
import { loadedPlaywright } from './playwright.js';
import { parseUpstream } from './upstream-proxy.js';

const DESKTOP_VIEWPORT = { width: 1920, height: 1080 };
const MOBILE_DEVICE = 'Pixel 7';
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

export interface Emulation {
  /** Equal for emulations a context can serve interchangeably. */
  key: string;
  mobile: boolean;
  userAgent: string | undefined;
  locale: string | undefined;
  timezoneId: string | undefined;
  geolocation: { latitude: number; longitude: number; accuracy: number } | undefined;
  ignoreHTTPSErrors: boolean;
  upstream: URL | undefined;
}

export function planEmulation(req: FetchRequest): Emulation {
  const userAgent = headerValue(req.headers, 'user-agent');
  const country = req.location?.country?.trim().toUpperCase();
  const profile = country ? COUNTRIES[country] : undefined;
  const languages = languagesOf(req.location);
  const locale = languages[0] ?? profile?.locale;
  const geolocation = profile ? { latitude: profile.lat, longitude: profile.lon, accuracy: 100 } : undefined;
  const upstream = parseUpstream(req.proxyUrl);
  const emulation: Omit<Emulation, 'key'> = {
    mobile: req.mobile,
    userAgent: userAgent || undefined,
    locale,
    timezoneId: profile?.timezone,
    geolocation,
    ignoreHTTPSErrors: req.skipTlsVerification,
    upstream,
  };
  const key = JSON.stringify([
    emulation.mobile,
    emulation.userAgent ?? '',
    emulation.locale ?? '',
    emulation.timezoneId ?? '',
    geolocation ? [geolocation.latitude, geolocation.longitude] : '',
    emulation.ignoreHTTPSErrors,
    upstream?.href ?? '',
  ]);
  return { ...emulation, key };
}

export function languagesOf(location: LocationRequest | undefined): string[] {
  return (location?.languages ?? []).map((l) => l.trim()).filter((l) => LANGUAGE_TAG.test(l));
}

/** `de-DE, en` -> `de-DE,en;q=0.9`: the order the caller gave, as preferences. */
export function acceptLanguage(languages: string[]): string | undefined {
  if (languages.length === 0) return undefined;
  return languages.map((l, i) => (i === 0 ? l : `${l};q=${Math.max(0.1, 1 - i / 10).toFixed(1)}`)).join(',');
}

function chromeMajor(version: string): string {
  return /^(\d+)/.exec(version)?.[1] ?? '0';
}

export function contextOptions(em: Emulation, proxyServer: string, browserVersion: string): BrowserContextOptions {
  const major = chromeMajor(browserVersion);
  const opts: BrowserContextOptions = {
    proxy: { server: proxyServer },
    ignoreHTTPSErrors: em.ignoreHTTPSErrors,
    // A service worker's fetches are not routed through page/context routes.
    serviceWorkers: 'block',
    acceptDownloads: true,
  };
  if (em.mobile) {
    // Contexts are made for a running browser, so Playwright is loaded by now.
    const device = loadedPlaywright()?.devices[MOBILE_DEVICE];
    if (!device) throw new Error(`Playwright has no "${MOBILE_DEVICE}" device descriptor`);
    // `screen` is in the descriptor data but not in its published type.
    const screen = (device as { screen?: { width: number; height: number } }).screen;
    Object.assign(opts, {
      viewport: device.viewport,
      ...(screen ? { screen } : {}),
      deviceScaleFactor: device.deviceScaleFactor,
      isMobile: device.isMobile,
      hasTouch: device.hasTouch,
    });
    // The descriptor names a newer Chrome than the one running; a mismatch is a bot signal.
    opts.userAgent = em.userAgent ?? device.userAgent.replace(/Chrome\/[\d.]+/, `Chrome/${major}.0.0.0`);
  } else {
    opts.viewport = DESKTOP_VIEWPORT;
    // Headless Chromium announces itself as "HeadlessChrome" unless told otherwise.
    opts.userAgent = em.userAgent ?? `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  }
  if (em.locale) opts.locale = em.locale;
  if (em.timezoneId) opts.timezoneId = em.timezoneId;
  if (em.geolocation) {
    opts.geolocation = em.geolocation;
    opts.permissions = ['geolocation'];
  }
  return opts;
}
