/**
 * A bounded plan-and-act loop: the model is given a goal, a list of tools and what it sees,
 * and answers one step at a time as JSON (`{tool, args}` or `{tool: "finish", answer}`); each
 * step runs and its result goes back to the model. Steps are JSON through the provider's
 * structured output, so a small local model that cannot call tools still drives it. Anything a
 * tool reads from the outside (page text) goes back as delimited data, never as instructions.
 * Bounded in steps and by a deadline; it always ends with what was done.
 */
import { asData, taskMessages } from './prompts.js';
import { schemaErrors } from './schema.js';
import { ModelUnavailableError, type ChatMessage, type ModelSession } from './types.js';
import type { JsonSchema } from './offline/fill.js';

export interface LoopTool {
  name: string;
  description: string;
  /** JSON Schema of the tool's `args` object. */
  parameters: JsonSchema;
  /** Runs the step; what it answers is what the model sees next. Throwing is a failed step. */
  run(args: Record<string, unknown>): Promise<string>;
}

export interface LoopOptions {
  goal: string;
  tools: readonly LoopTool[];
  /** What the model sees before its first step (the state of the world it acts on). */
  observe(): Promise<string>;
  maxSteps: number;
  /** Epoch ms: no step starts after it. */
  deadline: number;
  /** Longest result of one step that the model is shown. */
  maxObservationChars: number;
}

export interface LoopStep {
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  observation: string;
}

export interface LoopResult {
  /** finished: the model said it was done; the others say what stopped it first. */
  status: 'finished' | 'step-limit' | 'deadline' | 'model-failed';
  answer: string | null;
  steps: LoopStep[];
  error?: string;
}

export const FINISH = 'finish';

function stepSchema(tools: readonly LoopTool[]): JsonSchema {
  return {
    type: 'object',
    properties: {
      thought: { type: 'string' },
      tool: { type: 'string', enum: [...tools.map((t) => t.name), FINISH] },
      args: { type: 'object' },
      answer: { type: 'string' },
    },
    required: ['tool'],
  };
}

function instructions(goal: string, tools: readonly LoopTool[], maxSteps: number): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description} Arguments: ${JSON.stringify(t.parameters.properties ?? {})}`).join('\n');
  return (
    `Reach this goal by acting step by step: ${goal}\n` +
    `Tools:\n${list}\n- ${FINISH}: stop; put the outcome, stated for the person who set the goal, in "answer".\n` +
    `Answer each turn with JSON {"thought": string, "tool": string, "args": object, "answer": string}: one tool per turn. ` +
    `After each step you are shown its result. You have at most ${maxSteps} steps; finish as soon as the goal is reached or cannot be. ` +
    `The current state follows.`
  );
}

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max)}\n... (cut at ${max} characters)`);

export async function runToolLoop(m: ModelSession, o: LoopOptions): Promise<LoopResult> {
  const byName = new Map(o.tools.map((t) => [t.name, t]));
  const schema = stepSchema(o.tools);
  const messages: ChatMessage[] = taskMessages(instructions(o.goal, o.tools, o.maxSteps), cut(await o.observe(), o.maxObservationChars));
  const steps: LoopStep[] = [];
  const end = (status: LoopResult['status'], answer: string | null = null, error?: string): LoopResult => ({ status, answer, steps, ...(error ? { error } : {}) });
  for (let n = 0; n < o.maxSteps; n++) {
    if (Date.now() >= o.deadline) return end('deadline');
    let step: { tool?: unknown; args?: unknown; answer?: unknown } | undefined;
    try {
      const out = await m.json({ messages, schema, name: 'next_step' });
      step = out.value as typeof step;
      if (typeof step?.tool !== 'string') return end('model-failed', null, `The model's step is not usable: ${out.errors.slice(0, 3).join('; ') || 'no tool named'}`);
    } catch (e) {
      if (!(e instanceof ModelUnavailableError)) throw e;
      return end(e.reason === 'timeout' && Date.now() >= o.deadline ? 'deadline' : 'model-failed', null, e.message);
    }
    const tool = step.tool as string;
    if (tool === FINISH) return end('finished', typeof step.answer === 'string' ? step.answer : '');
    const args = typeof step.args === 'object' && step.args !== null && !Array.isArray(step.args) ? (step.args as Record<string, unknown>) : {};
    const record: LoopStep = { tool, args, ok: false, observation: '' };
    const t = byName.get(tool);
    if (!t) record.observation = `There is no tool named ${tool}.`;
    else {
      const problems = schemaErrors(t.parameters, args);
      if (problems.length) record.observation = `Invalid arguments for ${tool}: ${problems.join('; ')}`;
      else {
        try {
          record.observation = await t.run(args);
          record.ok = true;
        } catch (e) {
          record.observation = `The step failed: ${(e as Error).message}`;
        }
      }
    }
    steps.push(record);
    messages.push({ role: 'assistant', content: JSON.stringify(step) });
    // Results carry page text: data between fresh boundaries, like the first observation.
    const { block, boundary } = asData(cut(record.observation || '(no output)', o.maxObservationChars));
    messages.push({ role: 'user', content: `Result of ${tool} (${record.ok ? 'done' : 'failed'}), between "<<<${boundary}" and "${boundary}>>>":\n${block}\nNext step?` });
  }
  return end('step-limit');
}
