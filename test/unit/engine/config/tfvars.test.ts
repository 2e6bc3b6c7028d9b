import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  autoVarFiles,
  environmentSettings,
  parseTfvars,
  settingsToInputs,
  VarFileError,
} from '../../../../src/engine/config/tfvars';

describe('definitions files', () => {
  it('reads an HCL body of constant definitions, with comments and multi-line values', () => {
    const text = [
      '# team defaults',
      'name = "web" // trailing comment',
      '/* block */ replicas = 3',
      'tags = [',
      '  "a",',
      '  "b",',
      ']',
      'limits = { cpu = 500, "memory-mb" = 256 }',
      'on = true',
      'nothing = null',
    ].join('\n');
    expect(parseTfvars(text, 'x.tfvars')).toEqual({
      name: 'web',
      replicas: 3,
      tags: ['a', 'b'],
      limits: { cpu: 500, 'memory-mb': 256 },
      on: true,
      nothing: null,
    });
  });

  it('refuses references, function calls, duplicates and syntax errors, naming the file', () => {
    const fail = (text: string): VarFileError => {
      try {
        parseTfvars(text, 'bad.tfvars');
      } catch (e) {
        if (e instanceof VarFileError) return e;
      }
      throw new Error(`accepted: ${text}`);
    };
    expect(fail('a = var.b').summary).toBe('Variables not allowed');
    expect(fail('a = upper("x")').summary).toBe('Function calls not allowed');
    expect(fail('a = 1\na = 2').detail).toBe('The argument "a" was already set.');
    expect(fail('a = [1,').file).toBe('bad.tfvars');
  });
});

describe('precedence', () => {
  it('loads terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars[.json] in lexical order', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tfvars-'));
    try {
      for (const f of [
        'b.auto.tfvars',
        'terraform.tfvars.json',
        'a.auto.tfvars.json',
        'terraform.tfvars',
        'x.tfvars',
      ])
        writeFileSync(path.join(dir, f), '');
      mkdirSync(path.join(dir, 'c.auto.tfvars.d'));
      expect(autoVarFiles(dir).map((f) => path.basename(f))).toEqual([
        'terraform.tfvars',
        'terraform.tfvars.json',
        'a.auto.tfvars.json',
        'b.auto.tfvars',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lets the later setting win and keeps typed and raw values apart', () => {
    const inputs = settingsToInputs(
      [
        ...environmentSettings({ TF_VAR_a: 'env', TF_VAR_b: 'env', OTHER: 'x' }),
        { name: 'a', value: ['file'] },
        { name: 'c', value: 1 },
        { name: 'c', raw: '2' },
        { name: 'undeclared', value: 1 },
      ],
      new Set(['a', 'b', 'c']),
    );
    expect(inputs).toEqual({ values: { a: ['file'] }, raw: { b: 'env', c: '2' } });
  });
});
