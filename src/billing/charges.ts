/**
 * Charges whose cause is not one request: a browser session (charged when it ends, by its
 * time) and an agent's steps. Each names its cause here, so every caller keys it the same way
 * and a session ended twice, or a step replayed, is charged once.
 */
import { browserSessionCost, COSTS } from './costs.js';
import type { AnyDb, CreditLedger } from './ledger.js';

export interface EndedSession {
  teamId: string;
  sessionId: string;
  durationMs: number;
}

export const browserSessionCause = (sessionId: string) => `browser:${sessionId}`;

/** Charges a session that ended (or expired); answers its credits, now or when first charged. */
export function chargeBrowserSession(ledger: CreditLedger, s: EndedSession): Promise<number> {
  return ledger.charge({ teamId: s.teamId, cause: browserSessionCause(s.sessionId), credits: browserSessionCost(s.durationMs) });
}

export interface AgentStep {
  teamId: string;
  keyId?: string | null;
  runId: string;
  /** The step's number within the run, from 1. */
  step: number;
}

/**
 * Charges one agent step. The agent's tool calls this after each step, with the transaction
 * that records the step when there is one, so a step and its charge commit together.
 */
export function chargeAgentStep(ledger: CreditLedger, s: AgentStep, trx?: AnyDb): Promise<number> {
  return ledger.charge({ teamId: s.teamId, keyId: s.keyId ?? null, cause: `agent:${s.runId}:step:${s.step}`, credits: COSTS.agentStep }, trx);
}
