/**
 * Terraform refreshes with one ReadResource per resource; the plugin gathers the reads that arrive
 * together into one refreshMany (src/plugin/read-batch.ts). A plan of unchanged jobs under the real
 * terraform costs less than a request per job (counted by the agent), and a job changed outside the
 * configuration is still planned as a change. Skipped, with a message, when no terraform is on PATH.
 */
import { startDevAgent, type DevAgent } from '../../../src/agent';
import { createWorkspace, findTerraform, type Workspace } from './harness';

const TERRAFORM = findTerraform();
if (!TERRAFORM) process.stderr.write('test/e2e/terraform: no terraform on PATH, skipping refresh-batch\n');

const IDS = Array.from({ length: 8 }, (_, i) => `batch-${i}`);

function jobHcl(id: string): string {
  return `
resource "sched_job" "${id}" {
  jobspec = jsonencode({
    ID          = "${id}"
    Type        = "service"
    Datacenters = ["dc1"]
    TaskGroups = [{
      Name  = "g"
      Count = 1
      Tasks = [{
        Name      = "t"
        Driver    = "mock"
        Config    = { run_for = "1h" }
        Resources = { CPU = 10, MemoryMB = 16 }
      }]
    }]
  })
}`;
}

(TERRAFORM ? describe : describe.skip)('terraform refresh through the plugin, batched', () => {
  let agent: DevAgent;
  let ws: Workspace;

  beforeAll(async () => {
    agent = await startDevAgent({ port: 0, registryPort: 0, timeScale: 0.01, recordRequests: true });
    ws = createWorkspace(TERRAFORM!);
    ws.write(`
terraform {
  required_providers {
    sched = { source = "cdktf-sched/sched", version = "0.1.0" }
  }
}
provider "sched" { address = "${agent.schedulerUrl}" }
${IDS.map(jobHcl).join('\n')}
`);
    await ws.run(['init', '-input=false', '-no-color']);
    await ws.run(['apply', '-input=false', '-no-color', '-auto-approve']);
  }, 240_000);

  afterAll(async () => {
    ws?.remove();
    await agent?.stop();
  });

  const plan = async (): Promise<{ code: number | null; stdout: string; requests: string[] }> => {
    const before = agent.requests.length;
    const { code, stdout } = await ws.run(
      ['plan', '-input=false', '-no-color', '-detailed-exitcode'],
      [0, 2],
    );
    return { code, stdout, requests: agent.requests.slice(before).map((r) => `${r.method} ${r.path}`) };
  };

  test('a plan of unchanged jobs lists them instead of reading each', async () => {
    const { code, stdout, requests } = await plan();
    expect(stdout).toContain('No changes.');
    expect(code).toBe(0);
    const reads = requests.filter((r) => /^GET \/v1\/job\/batch-/.test(r));
    const lists = requests.filter((r) => r.startsWith('GET /v1/jobs'));
    process.stderr.write(
      `refresh-batch: ${requests.length} requests for ${IDS.length} unchanged jobs (${lists.length} listings, ${reads.length} reads)\n`,
    );
    // Without the batch: one read per job. Reads that miss a batch's window are read on their own.
    expect(lists.length).toBeGreaterThanOrEqual(1);
    expect(requests.length).toBeLessThan(IDS.length);
  }, 120_000);

  test('a job changed outside the configuration is still planned as a change', async () => {
    const res = await fetch(`${agent.schedulerUrl}/v1/job/batch-3`);
    const job = (await res.json()) as Record<string, unknown>;
    const changed = await fetch(`${agent.schedulerUrl}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Job: { ...job, Meta: { by: 'someone else' } } }),
    });
    expect(changed.status).toBe(200);
    const { code, stdout } = await plan();
    expect(code).toBe(2);
    expect(stdout).toMatch(/# sched_job\.batch-3 will be updated in-place/);
    expect(stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  }, 120_000);
});
