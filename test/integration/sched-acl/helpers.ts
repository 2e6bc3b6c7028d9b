/** Raw HTTP calls and token factories for the ACL tests: they need to see statuses and bodies as sent. */
import { request } from 'undici';

export interface Answer {
  status: number;
  text: string;
  json<T = unknown>(): T;
}

export interface CallOptions {
  token?: string;
  /** Send the token as `Authorization: Bearer` instead of X-Sched-Token. */
  bearer?: boolean;
  body?: unknown;
  rawBody?: string;
}

export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.token) {
    if (o.bearer) headers['authorization'] = `Bearer ${o.token}`;
    else headers['x-sched-token'] = o.token;
  }
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(new URL(path, base), {
    method: method as 'GET',
    headers,
    body,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

export interface Token {
  AccessorID: string;
  SecretID: string;
}

/** Creates policies and client tokens with a management token, one per distinct rule text. */
export class Tokens {
  private readonly cache = new Map<string, Token>();
  private n = 0;

  constructor(
    private readonly base: string,
    private readonly management: string,
  ) {}

  async withRules(rules: string): Promise<Token> {
    const hit = this.cache.get(rules);
    if (hit) return hit;
    const name = `p${++this.n}`;
    const p = await call(this.base, 'POST', `/v1/acl/policy/${name}`, {
      token: this.management,
      body: { Name: name, Rules: rules },
    });
    if (p.status !== 200) throw new Error(`policy ${name}: ${p.status} ${p.text}`);
    const t = await call(this.base, 'POST', '/v1/acl/token', {
      token: this.management,
      body: { Name: name, Type: 'client', Policies: [name] },
    });
    if (t.status !== 200) throw new Error(`token ${name}: ${t.status} ${t.text}`);
    const token = t.json<Token>();
    this.cache.set(rules, token);
    return token;
  }

  /** A token with exactly these capabilities in one namespace. */
  capabilities(caps: readonly string[], ns = 'default'): Promise<Token> {
    const list = [...caps].sort();
    return this.withRules(`namespace "${ns}" {\n  capabilities = ${JSON.stringify(list)}\n}\n`);
  }
}

/** Every namespace capability a test might grant. */
export const ALL_CAPS = [
  'list-jobs',
  'parse-job',
  'read-job',
  'submit-job',
  'dispatch-job',
  'read-logs',
  'read-fs',
  'alloc-exec',
  'alloc-node-exec',
  'alloc-lifecycle',
  'policy-override',
  'scale-job',
] as const;

export function allBut(...missing: string[]): string[] {
  return ALL_CAPS.filter((c) => !missing.includes(c));
}
