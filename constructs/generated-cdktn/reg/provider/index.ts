// https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface RegProviderConfig {
  /**
  * URL of the registry API (default from REG_HTTP_ADDR, then http://127.0.0.1:8500).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#address RegProvider#address}
  */
  readonly address?: string;
  /**
  * ACL token (default from REG_HTTP_TOKEN).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#token RegProvider#token}
  */
  readonly token?: string;
  /**
  * Namespace used when a resource does not name one.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#namespace RegProvider#namespace}
  */
  readonly namespace?: string;
  /**
  * "sched" (default, or from REG_FLAVOR) or "consul": the header, field and environment names of a real Consul cluster.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#flavor RegProvider#flavor}
  */
  readonly flavor?: string;
  /**
  * Extra HTTP headers sent with every request.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#headers RegProvider#headers}
  */
  readonly headers?: { [key: string]: string };
  /**
  * Path to a PEM CA bundle.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#ca_file RegProvider#ca_file}
  */
  readonly caFile?: string;
  /**
  * Path to a PEM client certificate.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#cert_file RegProvider#cert_file}
  */
  readonly certFile?: string;
  /**
  * Path to a PEM client key.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#key_file RegProvider#key_file}
  */
  readonly keyFile?: string;
  /**
  * PEM CA bundle text.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#ca_pem RegProvider#ca_pem}
  */
  readonly caPem?: string;
  /**
  * PEM client certificate text.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#cert_pem RegProvider#cert_pem}
  */
  readonly certPem?: string;
  /**
  * PEM client key text.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#key_pem RegProvider#key_pem}
  */
  readonly keyPem?: string;
  /**
  * Do not verify the server certificate (testing only).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#skip_verify RegProvider#skip_verify}
  */
  readonly skipVerify?: boolean | cdktn.IResolvable;
  /**
  * Retries of a failed idempotent request (default 3).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#retries RegProvider#retries}
  */
  readonly retries?: number;
  /**
  * Time limit of one non-blocking request (default "60s").
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#request_timeout RegProvider#request_timeout}
  */
  readonly requestTimeout?: string;
  /**
  * Datacenter of the registry: default of peering requests and of a discovery chain's compile datacenter.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#datacenter RegProvider#datacenter}
  */
  readonly datacenter?: string;
  /**
  * Alias name
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#alias RegProvider#alias}
  */
  readonly alias?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs reg}
*/
export class RegProvider extends cdktn.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "reg";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a RegProvider resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the RegProvider to import
  * @param importFromId The id of the existing RegProvider that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the RegProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "reg", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/reg/0.1.0/docs reg} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options RegProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: RegProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'reg',
      terraformGeneratorMetadata: {
        providerName: 'reg',
        providerVersion: '0.1.0'
      },
      terraformProviderSource: 'cdktf-sched/reg'
    });
    this._address = config.address;
    this._token = config.token;
    this._namespace = config.namespace;
    this._flavor = config.flavor;
    this._headers = config.headers;
    this._caFile = config.caFile;
    this._certFile = config.certFile;
    this._keyFile = config.keyFile;
    this._caPem = config.caPem;
    this._certPem = config.certPem;
    this._keyPem = config.keyPem;
    this._skipVerify = config.skipVerify;
    this._retries = config.retries;
    this._requestTimeout = config.requestTimeout;
    this._datacenter = config.datacenter;
    this._alias = config.alias;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // address - computed: false, optional: true, required: false
  private _address?: string; 
  public get address() {
    return this._address;
  }
  public set address(value: string | undefined) {
    this._address = value;
  }
  public resetAddress() {
    this._address = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get addressInput() {
    return this._address;
  }

  // token - computed: false, optional: true, required: false
  private _token?: string; 
  public get token() {
    return this._token;
  }
  public set token(value: string | undefined) {
    this._token = value;
  }
  public resetToken() {
    this._token = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenInput() {
    return this._token;
  }

  // namespace - computed: false, optional: true, required: false
  private _namespace?: string; 
  public get namespace() {
    return this._namespace;
  }
  public set namespace(value: string | undefined) {
    this._namespace = value;
  }
  public resetNamespace() {
    this._namespace = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get namespaceInput() {
    return this._namespace;
  }

  // flavor - computed: false, optional: true, required: false
  private _flavor?: string; 
  public get flavor() {
    return this._flavor;
  }
  public set flavor(value: string | undefined) {
    this._flavor = value;
  }
  public resetFlavor() {
    this._flavor = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get flavorInput() {
    return this._flavor;
  }

  // headers - computed: false, optional: true, required: false
  private _headers?: { [key: string]: string }; 
  public get headers() {
    return this._headers;
  }
  public set headers(value: { [key: string]: string } | undefined) {
    this._headers = value;
  }
  public resetHeaders() {
    this._headers = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get headersInput() {
    return this._headers;
  }

  // ca_file - computed: false, optional: true, required: false
  private _caFile?: string; 
  public get caFile() {
    return this._caFile;
  }
  public set caFile(value: string | undefined) {
    this._caFile = value;
  }
  public resetCaFile() {
    this._caFile = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get caFileInput() {
    return this._caFile;
  }

  // cert_file - computed: false, optional: true, required: false
  private _certFile?: string; 
  public get certFile() {
    return this._certFile;
  }
  public set certFile(value: string | undefined) {
    this._certFile = value;
  }
  public resetCertFile() {
    this._certFile = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get certFileInput() {
    return this._certFile;
  }

  // key_file - computed: false, optional: true, required: false
  private _keyFile?: string; 
  public get keyFile() {
    return this._keyFile;
  }
  public set keyFile(value: string | undefined) {
    this._keyFile = value;
  }
  public resetKeyFile() {
    this._keyFile = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keyFileInput() {
    return this._keyFile;
  }

  // ca_pem - computed: false, optional: true, required: false
  private _caPem?: string; 
  public get caPem() {
    return this._caPem;
  }
  public set caPem(value: string | undefined) {
    this._caPem = value;
  }
  public resetCaPem() {
    this._caPem = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get caPemInput() {
    return this._caPem;
  }

  // cert_pem - computed: false, optional: true, required: false
  private _certPem?: string; 
  public get certPem() {
    return this._certPem;
  }
  public set certPem(value: string | undefined) {
    this._certPem = value;
  }
  public resetCertPem() {
    this._certPem = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get certPemInput() {
    return this._certPem;
  }

  // key_pem - computed: false, optional: true, required: false
  private _keyPem?: string; 
  public get keyPem() {
    return this._keyPem;
  }
  public set keyPem(value: string | undefined) {
    this._keyPem = value;
  }
  public resetKeyPem() {
    this._keyPem = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keyPemInput() {
    return this._keyPem;
  }

  // skip_verify - computed: false, optional: true, required: false
  private _skipVerify?: boolean | cdktn.IResolvable; 
  public get skipVerify() {
    return this._skipVerify;
  }
  public set skipVerify(value: boolean | cdktn.IResolvable | undefined) {
    this._skipVerify = value;
  }
  public resetSkipVerify() {
    this._skipVerify = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get skipVerifyInput() {
    return this._skipVerify;
  }

  // retries - computed: false, optional: true, required: false
  private _retries?: number; 
  public get retries() {
    return this._retries;
  }
  public set retries(value: number | undefined) {
    this._retries = value;
  }
  public resetRetries() {
    this._retries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get retriesInput() {
    return this._retries;
  }

  // request_timeout - computed: false, optional: true, required: false
  private _requestTimeout?: string; 
  public get requestTimeout() {
    return this._requestTimeout;
  }
  public set requestTimeout(value: string | undefined) {
    this._requestTimeout = value;
  }
  public resetRequestTimeout() {
    this._requestTimeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requestTimeoutInput() {
    return this._requestTimeout;
  }

  // datacenter - computed: false, optional: true, required: false
  private _datacenter?: string; 
  public get datacenter() {
    return this._datacenter;
  }
  public set datacenter(value: string | undefined) {
    this._datacenter = value;
  }
  public resetDatacenter() {
    this._datacenter = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get datacenterInput() {
    return this._datacenter;
  }

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public override get alias() {
    return this._alias;
  }
  public override set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      address: cdktn.stringToTerraform(this._address),
      token: cdktn.stringToTerraform(this._token),
      namespace: cdktn.stringToTerraform(this._namespace),
      flavor: cdktn.stringToTerraform(this._flavor),
      headers: cdktn.hashMapper(cdktn.stringToTerraform)(this._headers),
      ca_file: cdktn.stringToTerraform(this._caFile),
      cert_file: cdktn.stringToTerraform(this._certFile),
      key_file: cdktn.stringToTerraform(this._keyFile),
      ca_pem: cdktn.stringToTerraform(this._caPem),
      cert_pem: cdktn.stringToTerraform(this._certPem),
      key_pem: cdktn.stringToTerraform(this._keyPem),
      skip_verify: cdktn.booleanToTerraform(this._skipVerify),
      retries: cdktn.numberToTerraform(this._retries),
      request_timeout: cdktn.stringToTerraform(this._requestTimeout),
      datacenter: cdktn.stringToTerraform(this._datacenter),
      alias: cdktn.stringToTerraform(this._alias),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      address: {
        value: cdktn.stringToHclTerraform(this._address),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      token: {
        value: cdktn.stringToHclTerraform(this._token),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      namespace: {
        value: cdktn.stringToHclTerraform(this._namespace),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      flavor: {
        value: cdktn.stringToHclTerraform(this._flavor),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      headers: {
        value: cdktn.hashMapperHcl(cdktn.stringToHclTerraform)(this._headers),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      ca_file: {
        value: cdktn.stringToHclTerraform(this._caFile),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      cert_file: {
        value: cdktn.stringToHclTerraform(this._certFile),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      key_file: {
        value: cdktn.stringToHclTerraform(this._keyFile),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      ca_pem: {
        value: cdktn.stringToHclTerraform(this._caPem),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      cert_pem: {
        value: cdktn.stringToHclTerraform(this._certPem),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      key_pem: {
        value: cdktn.stringToHclTerraform(this._keyPem),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      skip_verify: {
        value: cdktn.booleanToHclTerraform(this._skipVerify),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      retries: {
        value: cdktn.numberToHclTerraform(this._retries),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      request_timeout: {
        value: cdktn.stringToHclTerraform(this._requestTimeout),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      datacenter: {
        value: cdktn.stringToHclTerraform(this._datacenter),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      alias: {
        value: cdktn.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
