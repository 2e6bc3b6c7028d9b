import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { canonicalJson, escapeTemplate, jsonText } from '../../../constructs/terraform-text';

describe('text inside Terraform strings', () => {
  it('escapes template syntax of literal text and keeps cdktf tokens live', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    const image = new TerraformVariable(stack, 'image', { type: 'string' }).stringValue;
    expect(escapeTemplate('${NOMAD_PORT_http} %{ if x }')).toBe('$${NOMAD_PORT_http} %%{ if x }');
    // A literal "$${" stays literal too: Terraform reads "$$${" as "$" followed by an escaped "${".
    expect(escapeTemplate('a $${b}')).toBe('a $$${b}');
    expect(escapeTemplate(`${image}:\${tag}`)).toBe(`${image}:$\${tag}`);
  });

  it('writes sorted, undefined-free JSON with number tokens bare', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    const n = new TerraformVariable(stack, 'n', { type: 'number' }).numberValue;
    expect(jsonText({ b: 1, a: [undefined, 'x'], c: undefined, d: { z: null, y: true } })).toBe(
      '{"a":[null,"x"],"b":1,"d":{"y":true,"z":null}}',
    );
    // With a reference inside, the JSON is left to jsonencode() so Terraform encodes each value.
    expect(canonicalJson({ Count: n, Env: { A: '${X}' } })).toMatch(/^\$\{TfToken\[TOKEN\.\d+\]\}$/);
    expect(canonicalJson({ Count: 1, Env: { A: '${X}' } })).toBe('{"Count":1,"Env":{"A":"$${X}"}}');
    expect(() => jsonText({ a: Number.NaN })).toThrow('cannot write NaN as JSON');
  });
});
