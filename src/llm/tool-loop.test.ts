import { describe, expect, it } from 'vitest';
import { runToolLoop, type LoopTool } from './tool-loop.js';
import { ModelUnavailableError, type ChatMessage, type JsonRequest, type ModelSession } from './types.js';

/** A model that answers the scripted steps in turn and remembers what it was asked. */
function scripted(steps: unknown[]): ModelSession & { asked: ChatMessage[][] } {
  const asked: ChatMessage[][] = [];
  return {
    asked,
    contextTokens: 4000,
    json: async (req: JsonRequest) => {
      asked.push(structuredClone(req.messages));
      const next = steps[asked.length - 1];
      if (next instanceof Error) throw next;
      return { value: next, valid: true, errors: [] };
    },
    text: async () => '',
  };
}

const counter = () => {
  let n = 0;
  const tool: LoopTool = {
    name: 'add',
    description: 'Adds to the counter.',
    parameters: { type: 'object', properties: { by: { type: 'number' } }, required: ['by'] },
    run: async (a) => `counter is ${(n += a.by as number)}`,
  };
  return tool;
};

const options = (tools: LoopTool[], maxSteps = 5) => ({ goal: 'reach 3', tools, observe: async () => 'counter is 0', maxSteps, deadline: Date.now() + 60_000, maxObservationChars: 100 });

describe('runToolLoop', () => {
  it('runs each step the model picks and ends with its answer', async () => {
    const m = scripted([{ tool: 'add', args: { by: 1 } }, { tool: 'add', args: { by: 2 } }, { tool: 'finish', answer: 'done at 3' }]);
    const r = await runToolLoop(m, options([counter()]));
    expect(r).toMatchObject({ status: 'finished', answer: 'done at 3' });
    expect(r.steps.map((s) => s.observation)).toEqual(['counter is 1', 'counter is 3']);
    // Each result goes back fenced as data, after the step the model took.
    const last = m.asked[2]!;
    expect(last).toHaveLength(6);
    expect(last.at(-2)).toEqual({ role: 'assistant', content: JSON.stringify({ tool: 'add', args: { by: 2 } }) });
    expect(last.at(-1)!.content).toMatch(/<<<PAGE-[0-9a-f]+\ncounter is 3\nPAGE-[0-9a-f]+>>>/);
  });

  it('shows the model a wrong tool or wrong arguments as a failed step, and goes on', async () => {
    const m = scripted([{ tool: 'delete_all' }, { tool: 'add', args: { by: 'one' } }, { tool: 'finish', answer: 'gave up' }]);
    const r = await runToolLoop(m, options([counter()]));
    expect(r.status).toBe('finished');
    expect(r.steps.map((s) => s.ok)).toEqual([false, false]);
    expect(r.steps[0]!.observation).toContain('no tool named delete_all');
    expect(r.steps[1]!.observation).toContain('/by must be number');
  });

  it('stops at the step limit, and when the model fails', async () => {
    const endless = scripted(Array.from({ length: 5 }, () => ({ tool: 'add', args: { by: 1 } })));
    expect(await runToolLoop(endless, options([counter()], 3))).toMatchObject({ status: 'step-limit', answer: null });
    expect(endless.asked).toHaveLength(3);
    const down = scripted([new ModelUnavailableError('The model server could not be reached', 'unreachable')]);
    expect(await runToolLoop(down, options([counter()]))).toMatchObject({ status: 'model-failed', error: 'The model server could not be reached' });
  });

  it('starts no step after the deadline', async () => {
    const m = scripted([{ tool: 'add', args: { by: 1 } }]);
    const r = await runToolLoop(m, { ...options([counter()]), deadline: Date.now() - 1 });
    expect(r.status).toBe('deadline');
    expect(m.asked).toHaveLength(0);
  });

  it('cuts long observations to the budget', async () => {
    const m = scripted([{ tool: 'finish', answer: '' }]);
    await runToolLoop(m, { ...options([counter()]), observe: async () => 'x'.repeat(500) });
    expect(m.asked[0]![1]!.content).toContain('(cut at 100 characters)');
  });
});
