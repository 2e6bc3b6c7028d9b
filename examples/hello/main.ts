/**
 * hello: a namespace and a web service deployed with a canary that is promoted automatically once
 * healthy, rolled back automatically if it is not.
 *
 *   npx cdktf-sched deploy --app examples/hello --auto-approve
 *   npx cdktf-sched deploy --app examples/hello --auto-approve --var image=nginx:1.28   # a canary rollout
 */
import { App, TerraformOutput, TerraformStack, TerraformVariable } from 'cdktf';
import type { Construct } from 'constructs';
import { Job, SchedNamespace, SchedProvider } from 'cdktf-sched';

export class HelloStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // The address comes from SCHED_ADDR; without it, cdktf-sched starts its embedded dev agent.
    new SchedProvider(this, 'sched', {});

    const image = new TerraformVariable(this, 'image', {
      type: 'string',
      default: 'nginx:1.27',
      description: 'Container image of the web task; changing it rolls out through one canary.',
    });

    const ns = new SchedNamespace(this, 'apps', {
      name: 'apps',
      description: 'Applications of the hello example',
    });

    const web = new Job(this, 'web', {
      spec: {
        ID: 'hello-web',
        Namespace: ns.name,
        Type: 'service',
        Datacenters: ['dc1'],
        Update: {
          MaxParallel: 1,
          Canary: 1,
          AutoPromote: true,
          AutoRevert: true,
          HealthCheck: 'task_states',
          MinHealthyTime: '2s',
          HealthyDeadline: '1m',
          ProgressDeadline: '5m',
        },
        TaskGroups: [
          {
            Name: 'web',
            Count: 3,
            Tasks: [
              {
                Name: 'server',
                Driver: 'docker',
                Config: { image: image.stringValue, ports: ['http'] },
                Resources: { CPU: 200, MemoryMB: 128 },
              },
            ],
          },
        ],
      },
    });

    new TerraformOutput(this, 'namespace', { value: ns.name });
    new TerraformOutput(this, 'job_version', { value: web.version });
    new TerraformOutput(this, 'deployment_status', { value: web.deploymentStatus });
  }
}

const app = new App();
new HelloStack(app, 'hello');
app.synth();
