/**
 * Issue 14's hostile requests, one by one, against a real dev agent: names that would break an ACL
 * capability, bodies nested deep enough to overflow the stack, a catastrophic regular expression, a
 * body that never finishes, and the blocking-query options of issue 18.
 */
import { connect } from 'node:net';
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { MAX_JSON_DEPTH } from '../../../src/agent/http/json-body';
import { mockJob } from '../../helpers/jobs';

let agent: DevAgent;

beforeAll(async () => {
  agent = await startDevAgent({
    port: 0,
    registryPort: 0,
    timeScale: 0.01,
    headersTimeoutMs: 1000,
    requestTimeoutMs: 1500,
  });
});

afterAll(() => agent.stop());

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
const sched = (method: string, path: string, body?: unknown) => call(agent.schedulerUrl, method, path, body);
const reg = (method: string, path: string, body?: unknown) => call(agent.registryUrl!, method, path, body);

/** A job whose task Config nests `depth` objects (the request adds 6 levels around it). */
function nestedJob(id: string, depth: number): string {
  const config = '{"x":'.repeat(depth) + '1' + '}'.repeat(depth);
  const job = JSON.stringify({ Job: mockJob(id, { count: 1 }) });
  return job.replace('{"run_for":"1h"}', config);
}

describe('names that would change an ACL capability', () => {
  it.each([
    [
      'PUT',
      '/v1/config',
      { Kind: 'service-defaults', Name: 'a:b', Protocol: 'http' },
      /^Name: .*"a:b" \(rule: service-name\)/,
    ],
    ['GET', '/v1/discovery-chain/a:b', undefined, /^service: .*"a:b" \(rule: service-name\)/],
    ['GET', '/v1/config/service-defaults/a:b', undefined, /^name: .*rule: service-name/],
    ['DELETE', '/v1/config/service-router/a%3Ab', undefined, /^name: .*rule: service-name/],
    ['GET', '/v1/namespace/a:b', undefined, /^name: must be a valid DNS hostname label/],
  ])('%s %s is a 400 naming the field and the rule', async (method, path, body, message) => {
    const before = agent.store.index;
    const res = await reg(method, path, body);
    expect({ status: res.status, text: res.text }).toEqual({
      status: 400,
      text: expect.stringMatching(message),
    });
    expect(agent.store.index).toBe(before);
  });

  it('still takes the names Consul takes', async () => {
    const res = await reg('PUT', '/v1/config', {
      Kind: 'service-defaults',
      Name: 'web.v2_x-1',
      Protocol: 'http',
    });
    expect(res.status).toBe(200);
    expect((await reg('GET', '/v1/discovery-chain/web.v2_x-1')).status).toBe(200);
  });
});

describe('request bodies nested too deep', () => {
  it.each([5000, 3000, MAX_JSON_DEPTH])('a job Config %i deep is a 400 naming the limit', async (depth) => {
    const res = await sched('PUT', '/v1/jobs', nestedJob('deep', depth));
    expect(res.status).toBe(400);
    expect(res.text).toBe(
      `request body: nests objects and arrays more than ${MAX_JSON_DEPTH} deep (rule: max-depth ${MAX_JSON_DEPTH})`,
    );
    expect((await sched('GET', '/v1/job/deep')).status).toBe(404);
  });

  it('a job at the limit is stored, and every later read, plan and update of it answers', async () => {
    const body = nestedJob('at-limit', MAX_JSON_DEPTH - 6);
    expect((await sched('PUT', '/v1/jobs', body)).status).toBe(200);
    expect((await sched('GET', '/v1/job/at-limit')).status).toBe(200);
    expect((await sched('PUT', '/v1/job/at-limit/plan', body.replace('{', '{"Diff":true,'))).status).toBe(
      200,
    );
    const changed = body.replace('"Count":1', '"Count":2');
    expect((await sched('PUT', '/v1/job/at-limit', changed)).status).toBe(200);
    expect((await sched('GET', '/v1/job/at-limit/versions?diffs=true')).status).toBe(200);
    expect((await sched('GET', '/v1/jobs?meta=true')).status).toBe(200);
    expect((await sched('DELETE', '/v1/job/at-limit?purge=true')).status).toBe(200);
  });

  it('depth counts brackets outside strings only', async () => {
    const job = JSON.parse(JSON.stringify({ Job: mockJob('braces', { count: 1 }) })) as {
      Job: { Meta: Record<string, string> };
    };
    job.Job.Meta = { text: '{'.repeat(10_000) };
    expect((await sched('PUT', '/v1/jobs', job)).status).toBe(200);
  });
});

describe('text in a request that recursive parsers read, nested too deep', () => {
  const deep = 5000;
  it.each([
    ['a list', `job "x" {\n meta { a = ${'['.repeat(deep)}${']'.repeat(deep)} }\n}`],
    ['parentheses', `job "x" {\n meta { a = ${'('.repeat(deep)}1${')'.repeat(deep)} }\n}`],
    ['blocks', `job "x" {\n${'group {\n'.repeat(deep)}${'}\n'.repeat(deep)}}`],
  ])('a jobspec nesting %s 5000 deep is a 400', async (_what, hcl) => {
    const res = await sched('POST', '/v1/jobs/parse', { JobHCL: hcl });
    expect({ status: res.status, text: res.text }).toEqual({
      status: 400,
      text: expect.stringMatching(/too deep to read \(rule: max-depth\)|nest/),
    });
  });

  it('ACL rules nesting 5000 deep are a 400', async () => {
    const rules = `service "a" { policy = ${'['.repeat(deep)}${']'.repeat(deep)} }`;
    const res = await reg('PUT', '/v1/acl/policy', { Name: 'deep', Rules: rules });
    expect({ status: res.status, text: res.text }).toEqual({
      status: 400,
      text: expect.stringMatching(/rule: max-depth/),
    });
  });
});

describe('filter regular expressions are RE2: linear time', () => {
  it('a catastrophic pattern answers at once and does not stall the registry', async () => {
    const job = mockJob('redos', { count: 1, meta: { n: 'a'.repeat(40) + 'b' } });
    expect((await sched('PUT', '/v1/jobs', { Job: job })).status).toBe(200);
    const filter = encodeURIComponent('Meta.n matches "^(a+)+$"');
    const started = performance.now();
    const [list, other] = await Promise.all([
      sched('GET', `/v1/jobs?meta=true&filter=${filter}`),
      reg('GET', '/v1/namespaces'),
    ]);
    // With a backtracking engine 40 characters take days; RE2 takes microseconds.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(list.status).toBe(200);
    expect(JSON.parse(list.text)).toEqual([]);
    expect(other.status).toBe(200);
  });

  it('RE2 syntax JavaScript lacks works, and what RE2 rejects is a 400', async () => {
    const ok = await sched(
      'GET',
      `/v1/jobs?meta=true&filter=${encodeURIComponent('Meta.n matches "(?i)^A+B$"')}`,
    );
    expect(JSON.parse(ok.text)).toEqual([expect.objectContaining({ ID: 'redos' })]);
    const bad = await sched('GET', `/v1/jobs?filter=${encodeURIComponent('Name matches "a(?=b)"')}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/invalid perl operator: \(\?=/);
  });
});

describe('requests that never finish arriving', () => {
  it('a body shorter than its Content-Length is cut off with 408 at the request timeout', async () => {
    const url = new URL(agent.schedulerUrl);
    const started = performance.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('PUT /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"Job":');
      });
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    // requestTimeoutMs is 1.5 s; Node checks on a timer, so allow for it and a loaded machine.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect((await sched('GET', '/v1/jobs')).status).toBe(200);
  });

  it('a blocking query may last longer than the request timeout: answering is not arriving', async () => {
    const index = agent.store.index;
    const started = performance.now();
    const res = await sched('GET', `/v1/jobs?index=${index}&wait=2500ms`);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2400);
  });

  it('refuses timeouts that contradict each other, naming the option', async () => {
    await expect(
      startDevAgent({ port: 0, registry: false, headersTimeoutMs: 5000, requestTimeoutMs: 1000 }),
    ).rejects.toThrow('dev agent option requestTimeoutMs: must be at least headersTimeoutMs (5000)');
  });
});

describe('blocking-query options (issue 18)', () => {
  it.each([
    ['wait=abc', 'wait: Invalid wait time "abc": must be a duration such as "30s" or "5m"'],
    ['wait=-1s', 'wait: Invalid wait time "-1s": must be a duration such as "30s" or "5m"'],
    ['index=-1', 'index: Invalid index "-1": must be an integer from 0 to 18446744073709551615'],
    [
      'index=18446744073709551616',
      'index: Invalid index "18446744073709551616": must be an integer from 0 to 18446744073709551615',
    ],
  ])('%s is a 400 on any read, blocking or not', async (query, message) => {
    for (const res of [
      await sched('GET', `/v1/jobs?${query}`),
      await reg('GET', `/v1/namespaces?${query}`),
    ]) {
      expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: message });
    }
  });

  it('an index beyond the current one answers at once with the current index, as Consul resets it', async () => {
    const started = performance.now();
    const res = await sched('GET', `/v1/jobs?index=${agent.store.index + 1000}&wait=30s`);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(Number(res.headers.get('x-sched-index'))).toBeLessThanOrEqual(agent.store.index);
  });

  it('register and plan answer X-Sched-Index; a missing job answers 404 with the jobs index', async () => {
    const body = { Job: mockJob('indexed', { count: 1 }) };
    const reg1 = await sched('PUT', '/v1/jobs', body);
    const written = (JSON.parse(reg1.text) as { Index: number }).Index;
    expect(reg1.headers.get('x-sched-index')).toBe(String(written));
    const plan = await sched('PUT', '/v1/job/indexed/plan', body);
    expect(plan.status).toBe(200);
    expect(plan.headers.get('x-sched-index')).toBe(
      String((JSON.parse(plan.text) as { Index: number }).Index),
    );
    const missing = await sched('GET', '/v1/job/not-there');
    expect(missing.status).toBe(404);
    expect(Number(missing.headers.get('x-sched-index'))).toBeGreaterThanOrEqual(written);
    expect(missing.headers.get('x-sched-knownleader')).toBe('true');
    // The registry's writes, like Consul's, carry none.
    const put = await reg('PUT', '/v1/config', { Kind: 'service-defaults', Name: 'idx', Protocol: 'http' });
    expect(put.headers.get('x-reg-index')).toBeNull();
  });
});
