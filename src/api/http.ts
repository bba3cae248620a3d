// undici's index loads all of undici (fetch, WebSocket, cookies, caches, mocks, and through them
// Node's own bundled copy): a visible share of every `plan`, `apply` and daemon start
// (docs/incremental.md, "Figures behind the code"), for two things wsync uses. So the Agent and
// the request API are taken from undici's own modules, and test/api/http.test.ts fails if an upgrade moves them (the package has no exports map that would
// hide them). The types are undici's public ones.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

// undici parses HTTP with llhttp compiled to WebAssembly. Once a large answer has run through it,
// V8 recompiles its one huge function with its optimizing compiler, which takes some 35 MB of
// memory for that while, the peak of a whole `wsync plan` of 10,000 monitors (docs/incremental.md,
// "Memory of a one-shot plan"); the baseline compiler's code parses a 30 MB list in less time than
// the recompiling takes. The flags bear only on WebAssembly (llhttp is wsync's only module), and are
// set before undici compiles it (at its first connection). `--liftoff-only` stands for the other
// two, but V8 draws such implications only from flags given at start: set here, Node 24's V8 kept
// tiering up (test/api/client.test.ts measured 24 MB of compiler memory with it alone).
setFlagsFromString('--liftoff-only');
setFlagsFromString('--no-wasm-tier-up');
setFlagsFromString('--no-wasm-dynamic-tiering');

export type Agent = UndiciAgent;
export type AgentOptions = UndiciAgent.Options;
export type ResponseData = Dispatcher.ResponseData;

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<ResponseData>;

const AgentClass = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
const requestApi = require('undici/lib/api/api-request.js') as RequestApi;

export function createAgent(options: AgentOptions): Agent {
  return new AgentClass(options);
}

export interface HttpRequest {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  headersTimeout?: number;
  bodyTimeout?: number;
}

/** One request through `dispatcher` (what undici's `request(url, { dispatcher })` does). */
export function httpRequest(dispatcher: Dispatcher, url: string | URL, req: HttpRequest): Promise<ResponseData> {
  const { origin, pathname, search } = typeof url === 'string' ? new URL(url) : url;
  return requestApi.call(dispatcher, { ...req, origin, path: `${pathname}${search}` });
}
