// https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface DataSchedDeploymentConfig extends cdktn.TerraformMetaArguments {
  /**
  * ID of the deployment (or give job_id for its latest).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment#deployment_id DataSchedDeployment#deployment_id}
  */
  readonly deploymentId?: string;
  /**
  * Job whose latest deployment to read, when deployment_id is not given.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment#job_id DataSchedDeployment#job_id}
  */
  readonly jobId?: string;
  /**
  * Namespace (default: the provider namespace, else "default").
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment#namespace DataSchedDeployment#namespace}
  */
  readonly namespace?: string;
}
export interface DataSchedDeploymentTaskGroups {
}

export function dataSchedDeploymentTaskGroupsToTerraform(struct?: DataSchedDeploymentTaskGroups): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
  }
}


export function dataSchedDeploymentTaskGroupsToHclTerraform(struct?: DataSchedDeploymentTaskGroups): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
  };
  return attrs;
}

export class DataSchedDeploymentTaskGroupsOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectKey the key of this item in the map
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, complexObjectKey: string) {
    super(terraformResource, terraformAttribute, false, complexObjectKey);
  }

  public get internalValue(): DataSchedDeploymentTaskGroups | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataSchedDeploymentTaskGroups | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // auto_revert - computed: true, optional: false, required: false
  public get autoRevert() {
    return this.getBooleanAttribute('auto_revert');
  }

  // auto_promote - computed: true, optional: false, required: false
  public get autoPromote() {
    return this.getBooleanAttribute('auto_promote');
  }

  // promoted - computed: true, optional: false, required: false
  public get promoted() {
    return this.getBooleanAttribute('promoted');
  }

  // desired_canaries - computed: true, optional: false, required: false
  public get desiredCanaries() {
    return this.getNumberAttribute('desired_canaries');
  }

  // desired_total - computed: true, optional: false, required: false
  public get desiredTotal() {
    return this.getNumberAttribute('desired_total');
  }

  // placed_allocs - computed: true, optional: false, required: false
  public get placedAllocs() {
    return this.getNumberAttribute('placed_allocs');
  }

  // healthy_allocs - computed: true, optional: false, required: false
  public get healthyAllocs() {
    return this.getNumberAttribute('healthy_allocs');
  }

  // unhealthy_allocs - computed: true, optional: false, required: false
  public get unhealthyAllocs() {
    return this.getNumberAttribute('unhealthy_allocs');
  }

  // placed_canaries - computed: true, optional: false, required: false
  public get placedCanaries() {
    return this.getListAttribute('placed_canaries');
  }

  // require_progress_by - computed: true, optional: false, required: false
  public get requireProgressBy() {
    return this.getStringAttribute('require_progress_by');
  }
}

export class DataSchedDeploymentTaskGroupsMap extends cdktn.ComplexMap {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute);
  }

  /**
  * @param key the key of the item to return
  */
  public get(key: string): DataSchedDeploymentTaskGroupsOutputReference {
    return new DataSchedDeploymentTaskGroupsOutputReference(this.terraformResource, this.terraformAttribute, key);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment sched_deployment}
*/
export class DataSchedDeployment extends cdktn.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "sched_deployment";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a DataSchedDeployment resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataSchedDeployment to import
  * @param importFromId The id of the existing DataSchedDeployment that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataSchedDeployment to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "sched_deployment", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/data-sources/deployment sched_deployment} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataSchedDeploymentConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataSchedDeploymentConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'sched_deployment',
      terraformGeneratorMetadata: {
        providerName: 'sched',
        providerVersion: '0.1.0'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._deploymentId = config.deploymentId;
    this._jobId = config.jobId;
    this._namespace = config.namespace;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // deployment_id - computed: true, optional: true, required: false
  private _deploymentId?: string; 
  public get deploymentId() {
    return this.getStringAttribute('deployment_id');
  }
  public set deploymentId(value: string) {
    this._deploymentId = value;
  }
  public resetDeploymentId() {
    this._deploymentId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deploymentIdInput() {
    return this._deploymentId;
  }

  // job_id - computed: true, optional: true, required: false
  private _jobId?: string; 
  public get jobId() {
    return this.getStringAttribute('job_id');
  }
  public set jobId(value: string) {
    this._jobId = value;
  }
  public resetJobId() {
    this._jobId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get jobIdInput() {
    return this._jobId;
  }

  // namespace - computed: true, optional: true, required: false
  private _namespace?: string; 
  public get namespace() {
    return this.getStringAttribute('namespace');
  }
  public set namespace(value: string) {
    this._namespace = value;
  }
  public resetNamespace() {
    this._namespace = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get namespaceInput() {
    return this._namespace;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // job_version - computed: true, optional: false, required: false
  public get jobVersion() {
    return this.getNumberAttribute('job_version');
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // status_description - computed: true, optional: false, required: false
  public get statusDescription() {
    return this.getStringAttribute('status_description');
  }

  // task_groups - computed: true, optional: false, required: false
  private _taskGroups = new DataSchedDeploymentTaskGroupsMap(this, "task_groups");
  public get taskGroups() {
    return this._taskGroups;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      deployment_id: cdktn.stringToTerraform(this._deploymentId),
      job_id: cdktn.stringToTerraform(this._jobId),
      namespace: cdktn.stringToTerraform(this._namespace),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      deployment_id: {
        value: cdktn.stringToHclTerraform(this._deploymentId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      job_id: {
        value: cdktn.stringToHclTerraform(this._jobId),
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
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
