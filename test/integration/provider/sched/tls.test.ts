/**
 * The sched provider against an agent that serves HTTPS with mutual TLS: a job is planned, registered
 * and waited for through the provider's TLS settings; a provider without a client certificate is told
 * it cannot reach the scheduler, and nothing shows the key.
 */
import { startDevAgent, type DevAgent } from '../../../../src/agent';
import { generateCertificate } from '../../../../src/plugin/certificate';
import { schedProvider } from '../../../../src/provider/sched/provider';
import { mockJob } from '../../../helpers/jobs';
import { converge, jobConfig, steady } from './harness';

const server = generateCertificate();
const operator = generateCertificate({ commonName: 'operator' });

describe('sched provider over mutual TLS', () => {
  let agent: DevAgent;
  beforeAll(async () => {
    agent = await startDevAgent({
      port: 0,
      registry: false,
      timeScale: 0.01,
      tls: { cert: server.certPem, key: server.keyPem, ca: operator.certPem, verifyIncoming: true },
    });
  });
  afterAll(() => agent.stop());

  it('plans, registers and waits for a job with ca_pem, cert_pem and key_pem', async () => {
    const p = schedProvider.configure(
      {
        address: agent.schedulerUrl,
        ca_pem: server.certPem,
        cert_pem: operator.certPem,
        key_pem: operator.keyPem,
        retries: 0,
      },
      {},
    );
    try {
      const h = p.resources['sched_job']!;
      const { state } = await converge(
        h,
        null,
        jobConfig(mockJob('tls-web', { count: 2, update: steady() })),
      );
      expect(state).toMatchObject({ id: 'tls-web', deployment_status: 'successful' });
      expect((await h.read(state!))?.['id']).toBe('tls-web');
    } finally {
      await p.close();
    }
  });

  it('without a client certificate the agent hangs up: the plan warns that it cannot reach the scheduler', async () => {
    const p = schedProvider.configure(
      { address: agent.schedulerUrl, ca_pem: server.certPem, retries: 0 },
      {},
    );
    try {
      const h = p.resources['sched_job']!;
      const change = await h.plan({ prior: null, config: jobConfig(mockJob('no-cert', { count: 1 })) });
      expect(change.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'warning',
          summary: 'Cannot reach the scheduler to plan job "no-cert"',
          detail: expect.stringContaining('cannot reach the server'),
        }),
      ]);
      expect(JSON.stringify(change)).not.toContain('PRIVATE KEY');
    } finally {
      await p.close();
    }
  });
});
