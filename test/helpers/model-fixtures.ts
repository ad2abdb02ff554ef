/**
 * Scripts for the scripted model server, one per model-backed feature that acts over time:
 * changeTracking json extraction, a monitor's change judgment, and a page agent's steps. Each
 * checks that the request is the one the feature must send (its structured-output name and
 * schema, the goal, the page or diff fenced as data) and records a breach, answering 400, when
 * it is not; otherwise it answers from the test's fixture.
 */
import { pageOf, type ChatRequest, type ModelServer, type Reply, type Script } from './model-server.js';

function expectThat(server: ModelServer, ok: boolean, breach: string): boolean {
  if (!ok) server.breaches.push(`fixture: ${breach}`);
  return ok;
}

const refusal = (why: string): Reply => ({ status: 400, message: `fixture: ${why}` });

/** The schema a structured request carries, however it asked (json_schema, tool, or the instructions). */
function requested(req: ChatRequest): { name: string | undefined; schema: unknown } {
  if (req.response_format?.type === 'json_schema') return { name: req.response_format.json_schema?.name, schema: req.response_format.json_schema?.schema };
  const tool = req.tools?.[0]?.function;
  return { name: undefined, schema: tool?.parameters };
}

/** changeTracking json: an extraction with exactly the entry's schema, over the fenced page. */
export function extractionFixture(server: ModelServer, schema: object, answer: (page: string) => Record<string, unknown>): Script {
  return (req) => {
    const { name, schema: asked } = requested(req);
    if (!expectThat(server, name === 'extraction', `expected an extraction request, got ${name}`)) return refusal('not an extraction');
    if (!expectThat(server, JSON.stringify(asked) === JSON.stringify(schema), 'the extraction does not carry the changeTracking schema')) return refusal('wrong schema');
    return { json: answer(pageOf(req)) };
  };
}

/** A monitor's judgment: the goal in the instructions, the unified diff fenced as data. */
export function judgmentFixture(server: ModelServer, goal: string, verdict: (diff: string, req: ChatRequest) => Reply): Script {
  return (req) => {
    const { name } = requested(req);
    if (!expectThat(server, name === 'change_judgment', `expected a change_judgment request, got ${name}`)) return refusal('not a judgment');
    const task = req.messages.find((m) => m.role === 'user')?.content ?? '';
    if (!expectThat(server, task.includes(goal), 'the judgment request does not state the goal')) return refusal('no goal');
    const diff = pageOf(req);
    if (!expectThat(server, /^@@ /m.test(diff) && /^[+-]/m.test(diff), 'the judgment request does not carry a unified diff as data')) return refusal('no diff');
    return verdict(diff, req);
  };
}

export interface AgentTurn {
  /** What the model sees this turn: the page's first view, or the last step's result. */
  observation: string;
  turn: number;
}

/**
 * A page agent: each turn must ask for `next_step` with the page tools, carry one more
 * exchange than the last, and fence what it shows the model; `steps[n]` answers turn n.
 */
export function agentFixture(server: ModelServer, tools: string[], steps: ((t: AgentTurn) => Record<string, unknown>)[]): Script {
  return (req) => {
    const { name, schema } = requested(req);
    if (!expectThat(server, name === 'next_step', `expected a next_step request, got ${name}`)) return refusal('not a step');
    const offered = ((schema as { properties?: { tool?: { enum?: string[] } } })?.properties?.tool?.enum ?? []) as string[];
    if (!expectThat(server, tools.every((t) => offered.includes(t)) && offered.includes('finish'), `the step schema offers ${offered.join(', ')}`)) return refusal('tools missing');
    const turn = (req.messages.length - 2) / 2;
    if (!expectThat(server, Number.isInteger(turn) && turn < steps.length, `unexpected conversation of ${req.messages.length} messages`)) return refusal('unexpected turn');
    const last = req.messages.at(-1)!.content;
    const fenced = /<<<(PAGE-[0-9a-f]+)\n([\s\S]*)\n\1>>>/.exec(last);
    if (!expectThat(server, fenced !== null, `turn ${turn} shows the model unfenced text`)) return refusal('unfenced');
    return { json: steps[turn]!({ observation: fenced![2]!, turn }) };
  };
}
