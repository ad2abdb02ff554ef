/**
 * Token counts per request, team and API key. Kept in memory behind an interface: the usage
 * endpoints (and a stored ledger, when accounts keep one) read and replace it without the model
 * layer changing.
 */

export interface TokenUse {
  teamId: string;
  keyId?: string | undefined;
  requestId: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
}

export interface TokenTotals {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  calls: number;
}

export interface TokenLedger {
  record(use: TokenUse): void;
  forTeam(teamId: string): TokenTotals;
  forKey(keyId: string): TokenTotals;
  forRequest(requestId: string): TokenTotals;
}

const zero = (): TokenTotals => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 });

function add(map: Map<string, TokenTotals>, key: string, u: TokenUse): void {
  const t = map.get(key) ?? zero();
  t.promptTokens += u.promptTokens;
  t.completionTokens += u.completionTokens;
  t.totalTokens += u.promptTokens + u.completionTokens;
  t.calls += 1;
  map.set(key, t);
}

export class MemoryTokenLedger implements TokenLedger {
  private readonly teams = new Map<string, TokenTotals>();
  private readonly keys = new Map<string, TokenTotals>();
  private readonly requests = new Map<string, TokenTotals>();

  /**
   * `store` also receives every use, for the stored ledger the usage endpoints read; requests
   * are remembered individually up to `maxRequests`, older ones still count in their team and key.
   */
  constructor(
    private readonly store?: (use: TokenUse) => void,
    private readonly maxRequests = 10_000,
  ) {}

  record(use: TokenUse): void {
    this.store?.(use);
    add(this.teams, use.teamId, use);
    if (use.keyId) add(this.keys, use.keyId, use);
    if (!this.requests.has(use.requestId) && this.requests.size >= this.maxRequests) this.requests.delete(this.requests.keys().next().value!);
    add(this.requests, use.requestId, use);
  }

  forTeam(teamId: string): TokenTotals {
    return { ...(this.teams.get(teamId) ?? zero()) };
  }
  forKey(keyId: string): TokenTotals {
    return { ...(this.keys.get(keyId) ?? zero()) };
  }
  forRequest(requestId: string): TokenTotals {
    return { ...(this.requests.get(requestId) ?? zero()) };
  }
}
