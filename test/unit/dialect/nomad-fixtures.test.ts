/**
 * Jobs as real Nomad 1.9 and 1.11 servers return them (test/fixtures/nomad, written from Nomad's
 * structs and API documentation): every field the server fills, Go zero values, Nomad's own names.
 * Read through the nomad dialect they must parse, and compare equal to the configuration that made them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dialectFor } from '../../../src/api/dialect';
import { JobSchema, type Job } from '../../../src/api/sched/schemas';
import { sameSpec, specDifferences } from '../../../src/provider/sched/job/compare';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'nomad');
const nomad = dialectFor('scheduler', 'nomad');

type Rec = Record<string, unknown>;
const load = (name: string): Rec => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Rec;
const config = (): Job => JobSchema.parse(load('config-web.json'));

/** The 1.11 job also carries a secret block, which the configuration names in neutral words. */
function configFor(version: string): Job {
  const c = config();
  if (version === '1.11') {
    const task = c.TaskGroups![0]!.Tasks![0]! as Rec;
    task['SecretBlocks'] = [
      { Name: 'db', Provider: 'vault', Path: 'secret/data/db', Config: { mount: 'kv' } },
    ];
  }
  return c;
}

function readBack(version: string, change?: (job: Rec) => void): Job {
  const wire = load(`job-${version}.json`);
  change?.(wire);
  return JobSchema.parse(nomad.fromWire(wire));
}

describe.each(['1.9', '1.11'])('a job read back from Nomad %s', (version) => {
  it('parses, with Nomad names turned into neutral ones', () => {
    const job = readBack(version);
    const task = job.TaskGroups![0]!.Tasks![0]! as Rec;
    expect(task['Secrets']).toMatchObject({ Policies: ['web-read'] });
    expect(task['Vault']).toBeUndefined();
    expect(task['Services']).toEqual([expect.objectContaining({ Provider: 'registry' })]);
    if (version === '1.11') expect(task['SecretBlocks']).toEqual([expect.objectContaining({ Name: 'db' })]);
  });

  it('compares equal to the configuration that produced it', () => {
    expect(specDifferences(configFor(version), readBack(version))).toEqual([]);
    expect(sameSpec(configFor(version), readBack(version))).toBe(true);
  });

  it('still shows a change made on the cluster', () => {
    const drifted = readBack(version, (j) => {
      ((j['TaskGroups'] as Rec[])[0] as Rec)['Count'] = 3;
    });
    expect(specDifferences(configFor(version), drifted)).toEqual(['TaskGroups[web].Count']);
  });

  it('does not hide a workload identity or registry block the user changed', () => {
    const drifted = readBack(version, (j) => {
      const task = ((j['TaskGroups'] as Rec[])[0]!['Tasks'] as Rec[])[0]!;
      task['Identity'] = { ...(task['Identity'] as Rec), Audience: ['vault.io'] };
      ((j['TaskGroups'] as Rec[])[0] as Rec)['Consul'] = { Cluster: 'other', Namespace: '', Partition: '' };
    });
    expect(specDifferences(configFor(version), drifted)).toEqual([
      'TaskGroups[web].Registry',
      'TaskGroups[web].Tasks[server].Identity',
    ]);
  });
});

describe('the nomad dialect table', () => {
  it('turns a neutral job into Nomad names and back without loss', () => {
    const neutral = configFor('1.11') as Rec;
    const wire = nomad.toWire(neutral) as Rec;
    const task = ((wire['TaskGroups'] as Rec[])[0]!['Tasks'] as Rec[])[0]!;
    expect(Object.keys(task)).toEqual(expect.arrayContaining(['Vault', 'Secrets']));
    expect(task['Vault']).toEqual({ Policies: ['web-read'] });
    expect(nomad.fromWire(wire)).toEqual(neutral);
  });

  it("never renames a user's keys inside free-form maps", () => {
    const job = {
      ID: 'j',
      Meta: { Vault: 'x', SecretsToken: 'y' },
      TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Env: { Secrets: 'z' }, Config: { Vault: 1 } }] }],
    };
    expect(nomad.toWire(job)).toEqual(job);
  });
});
