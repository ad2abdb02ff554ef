import { describe, expect, it } from 'vitest';
import { toExecuteResult } from './page-prompt.js';

describe('toExecuteResult', () => {
  it('answers a finished run with the answer as output and the steps on stdout', () => {
    const r = toExecuteResult({
      status: 'finished',
      answer: 'It says hello',
      steps: [{ tool: 'click', args: { target: '#go' }, ok: true, observation: 'clicked #go: done' }, { tool: 'read', args: {}, ok: false, observation: 'Error: timeout\nmore' }],
    });
    expect(r).toEqual({
      stdout: '1. click {"target":"#go"}: ok (clicked #go: done)\n2. read {}: failed (Error: timeout)\n',
      stderr: '',
      result: 'It says hello',
      output: 'It says hello',
      exitCode: 0,
      killed: false,
      truncated: false,
    });
  });

  it('says why a run stopped short: exit 1, and killed at the deadline', () => {
    expect(toExecuteResult({ status: 'step-limit', answer: null, steps: [] })).toMatchObject({ exitCode: 1, killed: false, output: '', stderr: 'Stopped after 10 steps without reaching the goal\n' });
    expect(toExecuteResult({ status: 'deadline', answer: null, steps: [] })).toMatchObject({ exitCode: 1, killed: true });
    expect(toExecuteResult({ status: 'model-failed', answer: null, steps: [], error: 'unreachable' }).stderr).toBe('Stopped: the model could not go on: unreachable\n');
  });
});
