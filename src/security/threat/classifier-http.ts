/**
 * The pluggable HTTP URL classifier (`THREAT_CLASSIFIER_URL`). Protocol, one request per URL:
 *
 *   POST <THREAT_CLASSIFIER_URL>   Content-Type: application/json   {"url": "https://example.com/a"}
 *   200  {"riskScore": 0..100, "categories"?: ["phishing", ...]}
 *
 * Any other status, a body that is not that shape, a refused connection or no answer within
 * the timeout means "cannot classify", and the team's failurePolicy decides. The classifier is
 * the operator's own service, so it is called directly, not through the SSRF guard.
 */
import { z } from 'zod';
import { ClassifierUnavailable, type Classification, type UrlClassifier } from './decide.js';

const answerSchema = z.object({
  riskScore: z.number().min(0).max(100),
  categories: z.array(z.string().max(200)).max(50).optional(),
});

export class HttpClassifier implements UrlClassifier {
  readonly name = 'URL classifier';

  constructor(
    private readonly endpoint: string,
    private readonly timeoutMs: number,
  ) {}

  async classify(url: string): Promise<Classification> {
    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ url }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      throw new ClassifierUnavailable(timedOut ? `no answer within ${this.timeoutMs} ms` : 'it cannot be reached');
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new ClassifierUnavailable(`it answered HTTP ${res.status}`);
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ClassifierUnavailable('its answer is not JSON');
    }
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) throw new ClassifierUnavailable('its answer lacks a riskScore between 0 and 100');
    const out: Classification = { riskScore: parsed.data.riskScore };
    if (parsed.data.categories?.length) out.categories = parsed.data.categories;
    return out;
  }
}
