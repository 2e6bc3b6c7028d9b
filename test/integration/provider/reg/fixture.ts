/**
 * A dev agent (registry included) with the reg provider configured against it, and the small engine loop
 * the tests drive handlers with: validate, plan, apply, read, import, as the engine or Terraform would.
 */
import { startDevAgent, type DevAgent, type DevAgentOptions } from '../../../../src/agent';
import { RegClient } from '../../../../src/api/reg/client';
import { REG_FLAVOR, TEST_DIALECT } from '../../../helpers/dialect';
import { configureRegProvider } from '../../../../src/provider/reg/provider';
import type {
  Config,
  DataSourceHandler,
  PlannedChange,
  Provider,
  ProgressEvent,
  ResourceHandler,
  State,
} from '../../../../src/provider/resource';
import { RegApplyError } from '../../../../src/provider/reg/redact';
import { DiagnosticsError, formatDiagnostic, type Diagnostic } from '../../../../src/provider/values';

export interface RegFixture {
  agent: DevAgent;
  /** Out-of-band access to the registry, for drift. */
  client: RegClient;
  provider: Provider;
  /** Every agent log line. */
  logs: string[];
  /** Every progress message a handler reported. */
  progress: string[];
  resource(type: string): ResourceHandler;
  data(type: string): DataSourceHandler;
  /** plan + apply; fails the test when the plan does not have the expected action. */
  converge(
    type: string,
    prior: State | null,
    config: Config | null,
    expected?: PlannedChange['action'],
  ): Promise<State | null>;
  stop(): Promise<void>;
}

export async function startRegFixture(
  opts: DevAgentOptions & { providerConfig?: Config; env?: Record<string, string> } = {},
): Promise<RegFixture> {
  const logs: string[] = [];
  const progress: string[] = [];
  const { providerConfig, env, ...agentOpts } = opts;
  const agent = await startDevAgent({
    port: 0,
    registryPort: 0,
    timeScale: 0.01,
    nodes: 0,
    log: (l) => logs.push(l),
    dialect: TEST_DIALECT,
    ...agentOpts,
  });
  const token = agentOpts.bootstrapToken;
  const client = new RegClient({
    address: agent.registryUrl!,
    env: {},
    retries: { max: 0 },
    flavor: REG_FLAVOR,
    ...(token ? { token } : {}),
  });
  const provider = configureRegProvider(
    {
      address: agent.registryUrl,
      retries: 0,
      flavor: REG_FLAVOR,
      ...(token ? { token } : {}),
      ...providerConfig,
    },
    env ?? {},
    { timeouts: { createMs: 10_000, deleteMs: 10_000 } },
  );
  const resource = (type: string): ResourceHandler => {
    const r = provider.resources[type];
    if (!r) throw new Error(`no resource ${type}`);
    return r;
  };
  return {
    agent,
    client,
    provider,
    logs,
    progress,
    resource,
    data(type) {
      const d = provider.dataSources[type];
      if (!d) throw new Error(`no data source ${type}`);
      return d;
    },
    async converge(type, prior, config, expected) {
      const h = resource(type);
      if (config) expectValid(h.validate(config));
      const change = await h.plan({ prior, config });
      if (expected && change.action !== expected) {
        throw new Error(
          `expected a ${expected} plan, got ${change.action}: ${JSON.stringify(change.replacePaths ?? [])}`,
        );
      }
      // Saved plans travel as JSON; applying the round-tripped plan proves nothing depends on object identity.
      const saved = JSON.parse(JSON.stringify(change)) as PlannedChange;
      return h.apply(saved, { onProgress: (e: ProgressEvent) => progress.push(e.message) });
    },
    async stop() {
      await provider.close();
      await client.close();
      await agent.stop();
    },
  };
}

export function expectValid(diags: Diagnostic[]): void {
  const errors = diags.filter((d) => d.severity === 'error');
  if (errors.length > 0)
    throw new Error(`unexpected diagnostics:\n${errors.map(formatDiagnostic).join('\n')}`);
}

/** The error a promise rejects with, as text (message plus every diagnostic), for secret checks. */
export async function failureText(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DiagnosticsError || err instanceof RegApplyError)
      return [err.message, ...err.diagnostics.map((d) => JSON.stringify(d))].join('\n');
    return err instanceof Error ? `${err.name}: ${err.message}\n${String(err.stack)}` : String(err);
  }
  throw new Error('expected a failure');
}

/** Asserts that none of `secrets` appears in any of `texts`. */
export function expectNoSecret(texts: readonly string[], secrets: readonly string[]): void {
  for (const t of texts)
    for (const s of secrets) expect(t.includes(s) ? `secret found in: ${t}` : 'clean').toBe('clean');
}

/** The Diagnostics of a validate call, as [path, detail] pairs for compact assertions. */
export function pathsOf(diags: Diagnostic[]): string[] {
  return diags.filter((d) => d.severity === 'error').map((d) => (d.path ?? []).join('.'));
}
