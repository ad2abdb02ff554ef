import { describe, expect, it } from 'vitest';
import { rankPassages } from './passages.js';
import { extractiveSummary } from './summary.js';

const weather = '# 東京の天気\n\n東京は今日晴れです。気温は二十五度まで上がります。明日の東京は雨が降る予定です。\n\n大阪でも晴れの日が続いています。';

describe('summaries and highlights of Chinese and Japanese pages', () => {
  it('quote whole sentences, run together without spaces as the page writes them', () => {
    const summary = extractiveSummary(weather);
    expect(summary.length).toBeGreaterThan(0);
    expect(summary).not.toContain('。 ');
    for (const s of summary.split(/(?<=。)/)) expect(weather).toContain(s);
  });

  it('find the passages that use the words of the query', () => {
    const passages = rankPassages(weather, '東京の天気');
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) {
      expect(p.text).toContain('東京');
      expect(weather).toContain(p.text);
    }
  });
});
