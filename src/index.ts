/**
 * The package's main entry, `import { Job, SchedProvider } from 'cdktf-sched'`: the typed constructs
 * and the generated bindings for cdktf. The clients are `cdktf-sched/api`, the dev agent
 * `cdktf-sched/agent`, and the same constructs for a cdktn App `cdktf-sched/cdktn`.
 */
export * from '../constructs';
