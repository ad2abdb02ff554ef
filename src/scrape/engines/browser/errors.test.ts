import { errors as pwErrors } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../errors.js';
import { connectError, netErrorCode, toBrowserError } from './errors.js';
import { playwright } from './playwright.js';

// The engine loads Playwright when it launches a browser; these tests make its errors directly.
beforeAll(() => playwright());

const nav = (code: string) => new Error(`page.goto: net::${code} at https://example.com/\nCall log:\n  - navigating`);

describe('toBrowserError', () => {
  it('passes catalog errors through untouched', () => {
    const e = new ApiError('URL_BLOCKED');
    expect(toBrowserError(e)).toBe(e);
  });

  it('maps Playwright timeouts and Chromium timeouts to SCRAPE_TIMEOUT', () => {
    expect(toBrowserError(new pwErrors.TimeoutError('Timeout 100ms exceeded')).key).toBe('SCRAPE_TIMEOUT');
    expect(toBrowserError(nav('ERR_TIMED_OUT')).key).toBe('SCRAPE_TIMEOUT');
    expect(toBrowserError(nav('ERR_CONNECTION_TIMED_OUT')).key).toBe('SCRAPE_TIMEOUT');
  });

  it('maps name resolution and TLS failures onto their own keys', () => {
    expect(toBrowserError(nav('ERR_NAME_NOT_RESOLVED'))).toMatchObject({ key: 'SCRAPE_DNS_RESOLUTION_ERROR', message: 'DNS resolution failed (net::ERR_NAME_NOT_RESOLVED)' });
    expect(toBrowserError(nav('ERR_NAME_RESOLUTION_FAILED')).key).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
    for (const code of ['ERR_CERT_AUTHORITY_INVALID', 'ERR_SSL_PROTOCOL_ERROR', 'ERR_BAD_SSL_CLIENT_AUTH_CERT']) {
      expect(toBrowserError(nav(code))).toMatchObject({ key: 'SCRAPE_SSL_ERROR', message: `TLS error: net::${code}` });
    }
  });

  it('reports other network failures as site errors naming the code', () => {
    expect(toBrowserError(nav('ERR_CONNECTION_REFUSED'))).toMatchObject({ key: 'SCRAPE_SITE_ERROR', message: 'Navigation failed: net::ERR_CONNECTION_REFUSED' });
  });

  it('says so when the page crashed or was closed, and keeps the first line otherwise', () => {
    expect(toBrowserError(new Error('Target page, context or browser has been closed')).message).toBe('The browser page crashed or was closed');
    expect(toBrowserError(new Error('Page crashed')).message).toBe('The browser page crashed or was closed');
    expect(toBrowserError(new Error('boom\nstack line'))).toMatchObject({ key: 'SCRAPE_SITE_ERROR', message: 'Browser fetch failed: boom' });
    expect(toBrowserError('plain string').message).toBe('Browser fetch failed: plain string');
  });
});

describe('netErrorCode', () => {
  it('finds the code in a message, or nothing', () => {
    expect(netErrorCode(nav('ERR_ABORTED'))).toBe('ERR_ABORTED');
    expect(netErrorCode(new Error('no code here'))).toBeUndefined();
    expect(netErrorCode(undefined)).toBeUndefined();
  });
});

describe('connectError', () => {
  const sysError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

  it('maps resolver failures to SCRAPE_DNS_RESOLUTION_ERROR', () => {
    expect(connectError('example.test', 443, sysError('ENOTFOUND'))).toMatchObject({ key: 'SCRAPE_DNS_RESOLUTION_ERROR', message: 'DNS resolution failed for example.test' });
    expect(connectError('[::1]', 443, sysError('EAI_AGAIN')).message).toBe('DNS resolution failed for ::1');
  });

  it('names the address and the cause of other failures', () => {
    expect(connectError('::1', 80, sysError('ECONNREFUSED'))).toMatchObject({ key: 'SCRAPE_SITE_ERROR', message: 'Could not connect to [::1]:80: ECONNREFUSED' });
    expect(connectError('example.test', 8080, new Error('proxy said no')).message).toBe('Could not connect to example.test:8080: proxy said no');
  });

  it('keeps the guard’s refusals as they are', () => {
    const refusal = new ApiError('URL_BLOCKED');
    expect(connectError('10.0.0.1', 80, refusal)).toBe(refusal);
  });
});
