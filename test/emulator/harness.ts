// Starts an emulator in-process on a free port and talks to it over 127.0.0.1 with fetch.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const demoSeedFile = path.join(repoRoot, 'scripts/demo-seed.json');
export const ADMIN_TOKEN = 'test-admin-token';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when empty. */
  body: unknown;
}

export interface Harness {
  url: string;
  call(method: string, path: string, options?: { body?: unknown; token?: string | null; rawBody?: string }): Promise<Answer>;
  /** Like call, but fails the test unless the status is 2xx; returns the JSON body. */
  ok<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ token: ADMIN_TOKEN, seedFile: demoSeedFile, seed: 7, ...options });
  const call: Harness['call'] = async (method, requestPath, callOptions = {}) => {
    const token = callOptions.token === undefined ? ADMIN_TOKEN : callOptions.token;
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = callOptions.rawBody;
    if (callOptions.body !== undefined) body = JSON.stringify(callOptions.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(emulator.url + requestPath, { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    url: emulator.url,
    call,
    async ok<T>(method: string, requestPath: string, body?: unknown): Promise<T> {
      const answer = await call(method, requestPath, { body });
      if (answer.status >= 300) throw new Error(`${method} ${requestPath} answered ${answer.status}: ${answer.text}`);
      return answer.body as T;
    },
    close: () => emulator.close(),
  };
}
