/**
 * batch: a batch job that runs to completion once per deploy, and a parameterized job that runs
 * nothing until it is dispatched (see dispatch.ts).
 *
 *   npx cdktf-sched deploy --app examples/batch --auto-approve
 *   npx tsx examples/batch/dispatch.ts img-42          # with SCHED_ADDR pointing at the same cluster
 */
import path from 'node:path';
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import { Job, SchedProvider } from 'cdktf-sched';

export class BatchStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // The address comes from SCHED_ADDR; without it, cdktf-sched starts its embedded dev agent.
    new SchedProvider(this, 'sched', {});

    // A typed spec: two instances of a nightly report, each running for 10s and exiting 0.
    const report = new Job(this, 'report', {
      spec: {
        ID: 'nightly-report',
        Type: 'batch',
        Datacenters: ['dc1'],
        Meta: { owner: 'data-team' },
        TaskGroups: [
          {
            Name: 'report',
            Count: 2,
            RestartPolicy: { Attempts: 1, Interval: '10m', Delay: '15s', Mode: 'fail' },
            Tasks: [
              {
                Name: 'aggregate',
                Driver: 'docker',
                Config: {
                  image: 'example/report:2.1',
                  args: ['--since', '24h'],
                  run_for: '10s',
                  exit_code: 0,
                },
                Resources: { CPU: 300, MemoryMB: 256 },
              },
            ],
          },
        ],
      },
    });

    // An HCL2 jobspec that the cluster parses at deploy time; its variables come from here.
    // Resolved from this file's folder, so the app works from any working directory.
    const thumbnail = new Job(
      this,
      'thumbnail',
      Job.fromFile(path.join(__dirname, 'thumbnail.nomad.hcl'), { vars: { work_time: '5s' } }),
    );

    new TerraformOutput(this, 'report_job', { value: report.id });
    new TerraformOutput(this, 'thumbnail_job', { value: thumbnail.id });
    new TerraformOutput(this, 'thumbnail_type', { value: thumbnail.type });
  }
}

const app = new App();
new BatchStack(app, 'batch');
app.synth();
