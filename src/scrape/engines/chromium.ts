export * from './browser/chromium.js';
