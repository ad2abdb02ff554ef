export * from './browser/index.js';
