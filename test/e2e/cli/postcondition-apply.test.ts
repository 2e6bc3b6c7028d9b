/**
 * A resource's postconditions are checked after it applies (src/engine/apply/steps/instance-change.ts,
 * which builds the expression scope only for blocks that have any): a failing one fails the deploy with
 * its message, a holding one lets it complete.
 */
import { createProject, stackJson, withPath, type Project } from './helpers';

let p: Project;
beforeAll(async () => {
  p = await createProject();
});
afterAll(async () => p.close());

const namespace = (description: string, expected: string): Record<string, unknown> =>
  stackJson({
    resource: {
      sched_namespace: {
        checked: withPath('app', 'checked', {
          name: 'checked',
          description,
          lifecycle: {
            postcondition: [
              {
                condition: `\${self.description == "${expected}"}`,
                error_message: `the description must be ${expected}`,
              },
            ],
          },
        }),
      },
    },
  });

test('a failing postcondition fails the deploy with its message; a holding one completes', async () => {
  p.writeStack('app', namespace('first', 'other'));
  const failed = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(failed.code).toBe(1);
  expect(failed.stdout + failed.stderr).toContain('the description must be other');

  p.writeStack('app', namespace('second', 'second'));
  const ok = await p.cli(['deploy', '--no-synth', '--auto-approve']);
  expect(ok.stderr).not.toMatch(/Error/);
  expect(ok.code).toBe(0);
});
