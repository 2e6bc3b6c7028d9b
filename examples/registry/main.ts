/**
 * registry: a registry namespace whose tokens get a default policy, a Kubernetes auth method whose
 * secret configuration is a sensitive variable, and a cluster peering between two registries: this
 * one generates a token (`PeeringToken`), the peer registry establishes the peering with it (`Peering`
 * through a second provider with alias `peer`).
 *
 *   npx tsx examples/registry/create-policy.ts                # once per registry: the linked policy
 *   PEER_REG_HTTP_ADDR=http://127.0.0.1:8501 npx cdktf-sched deploy --app examples/registry \
 *     --var k8s_ca_cert="$(cat ca.pem)" --var k8s_reviewer_jwt="$REVIEWER_JWT" --auto-approve
 */
import { App, Fn, TerraformOutput, TerraformStack, TerraformVariable } from 'cdktf';
import type { Construct } from 'constructs';
import { AuthMethod, Peering, PeeringToken, RegNamespace, RegProvider } from 'cdktf-sched';
import { DEFAULT_POLICY } from './policy';

export class RegistryStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    // This registry: REG_HTTP_ADDR (without it, cdktf-sched starts its embedded dev agent).
    new RegProvider(this, 'reg', { datacenter: 'dc1' });

    // The peer registry. Its address is a variable so a plan can be pointed anywhere with
    // --var peer_address=...; PEER_REG_HTTP_ADDR, read when the app is synthesized, is its default.
    const peerEnv = process.env['PEER_REG_HTTP_ADDR'];
    const peerAddress = new TerraformVariable(this, 'peer_address', {
      type: 'string',
      description: 'URL of the peer registry API (default: PEER_REG_HTTP_ADDR at synth).',
      ...(peerEnv ? { default: peerEnv } : {}),
    });
    const peer = new RegProvider(this, 'peer', { alias: 'peer', address: peerAddress.stringValue });

    // Namespace: every token created in it gets the policy made by create-policy.ts. The registry
    // resolves the name when the namespace is written, so the policy must exist first.
    new RegNamespace(this, 'apps', {
      name: 'apps',
      description: 'Applications; tokens here can read the catalog by default',
      meta: { team: 'platform' },
      policyDefaults: [DEFAULT_POLICY],
    });

    // Auth method: pods of a Kubernetes cluster log in with their service account token. The reviewer
    // JWT is a secret: a sensitive variable, never in the code, masked in plans and outputs.
    const k8sHost = new TerraformVariable(this, 'k8s_host', {
      type: 'string',
      default: 'https://kubernetes.default.svc:443',
      description: 'URL of the Kubernetes API.',
    });
    const k8sCaCert = new TerraformVariable(this, 'k8s_ca_cert', {
      type: 'string',
      description: 'PEM CA certificate of the Kubernetes API.',
    });
    const reviewerJwt = new TerraformVariable(this, 'k8s_reviewer_jwt', {
      type: 'string',
      sensitive: true,
      description: 'Service account JWT the registry uses to review login tokens (TokenReview).',
    });
    new AuthMethod(this, 'kubernetes', {
      name: 'kubernetes',
      type: 'kubernetes',
      displayName: 'Kubernetes (prod)',
      description: 'Pods log in with their service account token',
      maxTokenTtl: '1h',
      tokenLocality: 'local',
      // jsonencode, not a plain object: the PEM holds newlines, which must be escaped inside JSON.
      config: Fn.jsonencode({
        Host: k8sHost.stringValue,
        CACert: k8sCaCert.stringValue,
        ServiceAccountJWT: reviewerJwt.stringValue,
      }),
    });

    // Peering: this registry accepts (generates the token), the peer dials (establishes with it).
    const token = new PeeringToken(this, 'to_peer', {
      peerName: 'cluster-b',
      meta: { purpose: 'example' },
    });
    const peering = new Peering(this, 'from_peer', {
      provider: peer,
      peerName: 'cluster-a',
      peeringToken: token,
    });

    new TerraformOutput(this, 'peering_state', { value: peering.state });
    new TerraformOutput(this, 'peering_token', { value: token.peeringToken, sensitive: true });
  }
}

const app = new App();
new RegistryStack(app, 'registry');
app.synth();
