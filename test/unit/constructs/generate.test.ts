import { z } from 'zod';
import { attr } from '../../../src/provider/schema';
import type { ProviderShapes } from '../../../src/provider/terraform-schema';
import {
  FLAVORS,
  GENERATED_DIRS,
  defaultProviders,
  generateConstructFiles,
  readFileSet,
  type FileSet,
} from '../../../scripts/generate-constructs';

const fixture: ProviderShapes = {
  name: 'reg',
  shape: { token: attr(z.string().nullish(), { optional: true, sensitive: true }) },
  resourceShapes: {
    reg_widget: {
      description: 'A widget.',
      version: 0,
      shape: {
        id: attr(z.string(), { computed: true }),
        name: attr(z.string(), { required: true }),
        labels: attr(z.record(z.string(), z.string()).nullish(), { optional: true }),
        rule: attr(z.array(z.object({ selector: attr(z.string(), { required: true }) })).nullish(), {
          optional: true,
          block: 'list',
        }),
      },
    },
  },
  dataSourceShapes: {
    reg_widget: { description: 'Reads a widget.', shape: { name: attr(z.string(), { required: true }) } },
  },
};

describe('construct generation', () => {
  it('emits a provider class, resource and data source classes, and the schema they came from', async () => {
    const files = await generateConstructFiles([fixture]);
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'providers-schema.json',
      'reg/data-reg-widget/index.ts',
      'reg/index.ts',
      'reg/provider/index.ts',
      'reg/widget/index.ts',
    ]);
    const widget = files.get('reg/widget/index.ts')!;
    expect(widget).toContain('export class Widget extends cdktf.TerraformResource');
    expect(widget).toContain("terraformResourceType: 'reg_widget'");
    expect(widget).toContain('readonly labels?: { [key: string]: string };');
    // The compiler-directed pass adds what noImplicitOverride requires, in the right place.
    expect(widget).toContain('protected override synthesizeAttributes()');
    expect(widget).toMatch(/constructor\(protected override terraformResource: /);
    const provider = files.get('reg/provider/index.ts')!;
    expect(provider).toContain("terraformProviderSource: 'cdktf-sched/reg'");
    // The real cdktf CLI refuses a required_providers entry without a version.
    expect(provider).toContain("providerVersion: '0.1.0'");
    expect(provider).toContain('public override get alias()');
    expect(JSON.parse(files.get('providers-schema.json')!)).toMatchObject({
      provider_schemas: {
        'registry.terraform.io/cdktf-sched/reg': {
          provider: { block: { attributes: { token: { sensitive: true } } } },
        },
      },
    });
  });

  it.each(FLAVORS)(
    'committed bindings for %s match the providers (run `npm run generate` when this fails)',
    async (flavor) => {
      const fresh = await generateConstructFiles(defaultProviders(), flavor);
      const committed = await readFileSet(GENERATED_DIRS[flavor]);
      expect(describeDrift(committed, fresh)).toEqual([]);
    },
  );
});

function describeDrift(committed: FileSet, fresh: FileSet): string[] {
  const out: string[] = [];
  for (const [rel, text] of fresh) {
    const old = committed.get(rel);
    if (old === undefined) out.push(`missing: ${rel}`);
    else if (old !== text) out.push(`stale: ${rel}`);
  }
  for (const rel of committed.keys()) if (!fresh.has(rel)) out.push(`no longer generated: ${rel}`);
  return out;
}
