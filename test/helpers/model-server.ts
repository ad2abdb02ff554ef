/**
 * A scripted model server speaking the OpenAI chat-completions wire protocol over real HTTP:
 * `POST /v1/chat/completions`, streamed (server-sent events) or not. Every request is checked
 * against the protocol (messages, response_format, tools) and recorded; the test's script says
 * what to answer: JSON or text from fixtures, a tool call, 429 with Retry-After, 500, a slow
 * answer, or JSON that breaks the caller's schema. It can also refuse response_format
 * json_schema or tools with 400, as servers of small local models do.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
  tools?: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
  tool_choice?: unknown;
  temperature?: number;
}

export interface Seen {
  at: number;
  body: ChatRequest;
  /** How the request asked for structured output. */
  mode: 'json_schema' | 'tools' | 'json_object' | 'plain';
}

export type Reply =
  | { json: unknown; delayMs?: number }
  | { text: string; delayMs?: number }
  | { status: number; retryAfter?: string; message?: string; delayMs?: number };

export type Script = (req: ChatRequest, seen: Seen[]) => Reply;

export interface ModelServer {
  url: string;
  /** Base URL as a client is configured with it (`.../v1`). */
  baseUrl: string;
  seen: Seen[];
  /** Protocol breaches the server saw (must stay empty). */
  breaches: string[];
  supports: { jsonSchema: boolean; tools: boolean };
  script: Script;
  reset(script: Script, supports?: Partial<ModelServer['supports']>): void;
  close(): Promise<void>;
}

/** The page content a prompt carries between its boundary markers. */
export function pageOf(req: ChatRequest): string {
  const user = req.messages.filter((m) => m.role === 'user').at(0)?.content ?? '';
  const m = user.match(/<<<(PAGE-[0-9a-f]+)\n([\s\S]*)\n\1>>>/);
  return m ? m[2]! : '';
}

/** The name of the answer's schema, whichever way the request asks for it (json_schema or a tool). */
export function schemaNameOf(req: ChatRequest): string | undefined {
  return req.response_format?.json_schema?.name ?? req.tools?.[0]?.function.name;
}

const tokens = (s: string) => Math.ceil(s.length / 4);

function check(body: ChatRequest): string[] {
  const out: string[] = [];
  if (typeof body.model !== 'string' || !body.model) out.push('model missing');
  if (!Array.isArray(body.messages) || body.messages.length === 0) out.push('messages missing');
  for (const m of body.messages ?? []) {
    if (!['system', 'user', 'assistant', 'tool'].includes(m.role)) out.push(`bad role ${m.role}`);
    if (typeof m.content !== 'string') out.push('message content is not a string');
  }
  const rf = body.response_format;
  if (rf) {
    if (rf.type === 'json_schema') {
      if (!rf.json_schema?.name || !/^[A-Za-z0-9_-]{1,64}$/.test(rf.json_schema.name)) out.push('json_schema.name invalid');
      if (!rf.json_schema?.schema || typeof rf.json_schema.schema !== 'object') out.push('json_schema.schema missing');
    } else if (rf.type !== 'json_object' && rf.type !== 'text') out.push(`unknown response_format ${rf.type}`);
  }
  for (const t of body.tools ?? []) {
    if (t.type !== 'function' || !t.function?.name || typeof t.function.parameters !== 'object') out.push('bad tool definition');
  }
  const user = body.messages?.filter((m) => m.role === 'user') ?? [];
  // The model layer's promise: page text only ever arrives fenced as data.
  if (user.length && !/<<<PAGE-[0-9a-f]+\n/.test(user[0]!.content)) out.push('page content is not delimited');
  return out;
}

export async function startModelServer(script: Script = () => ({ text: 'ok' })): Promise<ModelServer> {
  const state: ModelServer = {
    url: '',
    baseUrl: '',
    seen: [],
    breaches: [],
    supports: { jsonSchema: true, tools: true },
    script,
    reset(s, supports = {}) {
      state.script = s;
      state.seen.length = 0;
      state.breaches.length = 0;
      state.supports = { jsonSchema: true, tools: true, ...supports };
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'not found' } }));
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
        const mode: Seen['mode'] = body.tools?.length ? 'tools' : body.response_format?.type === 'json_schema' ? 'json_schema' : body.response_format?.type === 'json_object' ? 'json_object' : 'plain';
        state.seen.push({ at: Date.now(), body, mode });
        const breaches = check(body);
        state.breaches.push(...breaches);
        const refuse = (message: string) => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
        };
        if (breaches.length) return refuse(breaches.join('; '));
        if (mode === 'json_schema' && !state.supports.jsonSchema) return refuse('response_format json_schema is not supported by this model');
        if (mode === 'tools' && !state.supports.tools) return refuse('this model does not support tools');
        const reply = state.script(body, state.seen);
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        if ('status' in reply) {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}) });
          return res.end(JSON.stringify({ error: { message: reply.message ?? `scripted ${reply.status}` } }));
        }
        const content = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
        const usage = { prompt_tokens: tokens(body.messages.map((m) => m.content).join('')), completion_tokens: tokens(content) };
        const asTool = mode === 'tools' && 'json' in reply;
        const message = asTool
          ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: body.tools![0]!.function.name, arguments: content } }] }
          : { role: 'assistant', content };
        const base = { id: `chatcmpl-${state.seen.length}`, created: Math.floor(Date.now() / 1000), model: body.model };
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
          send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
          for (let i = 0; i < content.length; i += 16) send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: content.slice(i, i + 16) }, finish_reason: null }] });
          send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
          send({ ...base, object: 'chat.completion.chunk', choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
          res.write('data: [DONE]\n\n');
          return res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [{ index: 0, message, finish_reason: asTool ? 'tool_calls' : 'stop' }],
            usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
          }),
        );
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${port}`;
  state.baseUrl = `${state.url}/v1`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
