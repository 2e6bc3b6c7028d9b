// https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktn from 'cdktn';

// Configuration

export interface JobConfig extends cdktn.TerraformMetaArguments {
  /**
  * The job: API JSON (with or without a "Job" wrapper) or an HCL2 jobspec, which the cluster parses.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#jobspec Job#jobspec}
  */
  readonly jobspec: string;
  /**
  * Values of the HCL2 jobspec variables.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#hcl2_vars Job#hcl2_vars}
  */
  readonly hcl2Vars?: { [key: string]: string };
  /**
  * Do not wait for the deployment (or the allocations) after a change (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#detach Job#detach}
  */
  readonly detach?: boolean | cdktn.IResolvable;
  /**
  * Purge the job at destroy instead of only stopping it (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#purge_on_destroy Job#purge_on_destroy}
  */
  readonly purgeOnDestroy?: boolean | cdktn.IResolvable;
  /**
  * Deregister the job at destroy (default true).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#deregister_on_destroy Job#deregister_on_destroy}
  */
  readonly deregisterOnDestroy?: boolean | cdktn.IResolvable;
  /**
  * When the job ID changes, deregister the old job (a replacement); otherwise it is left running (default true).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#deregister_on_id_change Job#deregister_on_id_change}
  */
  readonly deregisterOnIdChange?: boolean | cdktn.IResolvable;
  /**
  * Register the job again when it is dead (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#rerun_if_dead Job#rerun_if_dead}
  */
  readonly rerunIfDead?: boolean | cdktn.IResolvable;
  /**
  * Override soft-mandatory policies (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#policy_override Job#policy_override}
  */
  readonly policyOverride?: boolean | cdktn.IResolvable;
  /**
  * Keep the task group counts running on the cluster (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#preserve_counts Job#preserve_counts}
  */
  readonly preserveCounts?: boolean | cdktn.IResolvable;
  /**
  * Priority of the evaluations the change creates (1-100; default the job priority).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#eval_priority Job#eval_priority}
  */
  readonly evalPriority?: number;
  /**
  * Placement failures found by the plan are errors; otherwise warnings (default true).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#fail_on_placement_failure Job#fail_on_placement_failure}
  */
  readonly failOnPlacementFailure?: boolean | cdktn.IResolvable;
  /**
  * Promote canaries once all of them are healthy (default false).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#auto_promote_canaries Job#auto_promote_canaries}
  */
  readonly autoPromoteCanaries?: boolean | cdktn.IResolvable;
  /**
  * timeouts block
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#timeouts Job#timeouts}
  */
  readonly timeouts?: JobTimeouts;
}
export interface JobTaskGroups {
}

export function jobTaskGroupsToTerraform(struct?: JobTaskGroups): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
  }
}


export function jobTaskGroupsToHclTerraform(struct?: JobTaskGroups): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
  };
  return attrs;
}

export class JobTaskGroupsOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): JobTaskGroups | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: JobTaskGroups | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // count - computed: true, optional: false, required: false
  public get count() {
    return this.getNumberAttribute('count');
  }

  // tasks - computed: true, optional: false, required: false
  public get tasks() {
    return this.getListAttribute('tasks');
  }

  // meta - computed: true, optional: false, required: false
  private _meta = new cdktn.StringMap(this, "meta");
  public get meta() {
    return this._meta;
  }

  // running - computed: true, optional: false, required: false
  public get running() {
    return this.getNumberAttribute('running');
  }

  // pending - computed: true, optional: false, required: false
  public get pending() {
    return this.getNumberAttribute('pending');
  }

  // complete - computed: true, optional: false, required: false
  public get complete() {
    return this.getNumberAttribute('complete');
  }

  // failed - computed: true, optional: false, required: false
  public get failed() {
    return this.getNumberAttribute('failed');
  }

  // lost - computed: true, optional: false, required: false
  public get lost() {
    return this.getNumberAttribute('lost');
  }
}

export class JobTaskGroupsList extends cdktn.ComplexList {

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet);
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): JobTaskGroupsOutputReference {
    return new JobTaskGroupsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface JobTimeouts {
  /**
  * How long create may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#create Job#create}
  */
  readonly create?: string;
  /**
  * How long update may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#update Job#update}
  */
  readonly update?: string;
  /**
  * How long delete may take, e.g. "10m".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#delete Job#delete}
  */
  readonly delete?: string;
}

export function jobTimeoutsToTerraform(struct?: JobTimeouts | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  return {
    create: cdktn.stringToTerraform(struct!.create),
    update: cdktn.stringToTerraform(struct!.update),
    delete: cdktn.stringToTerraform(struct!.delete),
  }
}


export function jobTimeoutsToHclTerraform(struct?: JobTimeouts | cdktn.IResolvable): any {
  if (!cdktn.canInspect(struct) || cdktn.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktn.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdktn.io/docs/concepts/resources#references");
  }
  const attrs = {
    create: {
      value: cdktn.stringToHclTerraform(struct!.create),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    update: {
      value: cdktn.stringToHclTerraform(struct!.update),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    delete: {
      value: cdktn.stringToHclTerraform(struct!.delete),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class JobTimeoutsOutputReference extends cdktn.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktn.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktn.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): JobTimeouts | cdktn.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._create !== undefined) {
      hasAnyValues = true;
      internalValueResult.create = this._create;
    }
    if (this._update !== undefined) {
      hasAnyValues = true;
      internalValueResult.update = this._update;
    }
    if (this._delete !== undefined) {
      hasAnyValues = true;
      internalValueResult.delete = this._delete;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: JobTimeouts | cdktn.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._create = undefined;
      this._update = undefined;
      this._delete = undefined;
    }
    else if (cdktn.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._create = value.create;
      this._update = value.update;
      this._delete = value.delete;
    }
  }

  // create - computed: false, optional: true, required: false
  private _create?: string; 
  public get create() {
    return this.getStringAttribute('create');
  }
  public set create(value: string) {
    this._create = value;
  }
  public resetCreate() {
    this._create = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get createInput() {
    return this._create;
  }

  // update - computed: false, optional: true, required: false
  private _update?: string; 
  public get update() {
    return this.getStringAttribute('update');
  }
  public set update(value: string) {
    this._update = value;
  }
  public resetUpdate() {
    this._update = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get updateInput() {
    return this._update;
  }

  // delete - computed: false, optional: true, required: false
  private _delete?: string; 
  public get delete() {
    return this.getStringAttribute('delete');
  }
  public set delete(value: string) {
    this._delete = value;
  }
  public resetDelete() {
    this._delete = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deleteInput() {
    return this._delete;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job sched_job}
*/
export class Job extends cdktn.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "sched_job";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTN code for importing a Job resource upon running "cdktn plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Job to import
  * @param importFromId The id of the existing Job that should be imported. Refer to the {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Job to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktn.TerraformProvider) {
        return new cdktn.ImportableResource(scope, importToId, { terraformResourceType: "sched_job", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/cdktf-sched/sched/0.1.0/docs/resources/job sched_job} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options JobConfig
  */
  public constructor(scope: Construct, id: string, config: JobConfig) {
    super(scope, id, {
      terraformResourceType: 'sched_job',
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
    this._jobspec = config.jobspec;
    this._hcl2Vars = config.hcl2Vars;
    this._detach = config.detach;
    this._purgeOnDestroy = config.purgeOnDestroy;
    this._deregisterOnDestroy = config.deregisterOnDestroy;
    this._deregisterOnIdChange = config.deregisterOnIdChange;
    this._rerunIfDead = config.rerunIfDead;
    this._policyOverride = config.policyOverride;
    this._preserveCounts = config.preserveCounts;
    this._evalPriority = config.evalPriority;
    this._failOnPlacementFailure = config.failOnPlacementFailure;
    this._autoPromoteCanaries = config.autoPromoteCanaries;
    this._timeouts.internalValue = config.timeouts;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // jobspec - computed: false, optional: false, required: true
  private _jobspec?: string; 
  public get jobspec() {
    return this.getStringAttribute('jobspec');
  }
  public set jobspec(value: string) {
    this._jobspec = value;
  }
  // Temporarily expose input value. Use with caution.
  public get jobspecInput() {
    return this._jobspec;
  }

  // hcl2_vars - computed: false, optional: true, required: false
  private _hcl2Vars?: { [key: string]: string }; 
  public get hcl2Vars() {
    return this.getStringMapAttribute('hcl2_vars');
  }
  public set hcl2Vars(value: { [key: string]: string }) {
    this._hcl2Vars = value;
  }
  public resetHcl2Vars() {
    this._hcl2Vars = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get hcl2VarsInput() {
    return this._hcl2Vars;
  }

  // detach - computed: false, optional: true, required: false
  private _detach?: boolean | cdktn.IResolvable; 
  public get detach() {
    return this.getBooleanAttribute('detach');
  }
  public set detach(value: boolean | cdktn.IResolvable) {
    this._detach = value;
  }
  public resetDetach() {
    this._detach = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get detachInput() {
    return this._detach;
  }

  // purge_on_destroy - computed: false, optional: true, required: false
  private _purgeOnDestroy?: boolean | cdktn.IResolvable; 
  public get purgeOnDestroy() {
    return this.getBooleanAttribute('purge_on_destroy');
  }
  public set purgeOnDestroy(value: boolean | cdktn.IResolvable) {
    this._purgeOnDestroy = value;
  }
  public resetPurgeOnDestroy() {
    this._purgeOnDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get purgeOnDestroyInput() {
    return this._purgeOnDestroy;
  }

  // deregister_on_destroy - computed: false, optional: true, required: false
  private _deregisterOnDestroy?: boolean | cdktn.IResolvable; 
  public get deregisterOnDestroy() {
    return this.getBooleanAttribute('deregister_on_destroy');
  }
  public set deregisterOnDestroy(value: boolean | cdktn.IResolvable) {
    this._deregisterOnDestroy = value;
  }
  public resetDeregisterOnDestroy() {
    this._deregisterOnDestroy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deregisterOnDestroyInput() {
    return this._deregisterOnDestroy;
  }

  // deregister_on_id_change - computed: false, optional: true, required: false
  private _deregisterOnIdChange?: boolean | cdktn.IResolvable; 
  public get deregisterOnIdChange() {
    return this.getBooleanAttribute('deregister_on_id_change');
  }
  public set deregisterOnIdChange(value: boolean | cdktn.IResolvable) {
    this._deregisterOnIdChange = value;
  }
  public resetDeregisterOnIdChange() {
    this._deregisterOnIdChange = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deregisterOnIdChangeInput() {
    return this._deregisterOnIdChange;
  }

  // rerun_if_dead - computed: false, optional: true, required: false
  private _rerunIfDead?: boolean | cdktn.IResolvable; 
  public get rerunIfDead() {
    return this.getBooleanAttribute('rerun_if_dead');
  }
  public set rerunIfDead(value: boolean | cdktn.IResolvable) {
    this._rerunIfDead = value;
  }
  public resetRerunIfDead() {
    this._rerunIfDead = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get rerunIfDeadInput() {
    return this._rerunIfDead;
  }

  // policy_override - computed: false, optional: true, required: false
  private _policyOverride?: boolean | cdktn.IResolvable; 
  public get policyOverride() {
    return this.getBooleanAttribute('policy_override');
  }
  public set policyOverride(value: boolean | cdktn.IResolvable) {
    this._policyOverride = value;
  }
  public resetPolicyOverride() {
    this._policyOverride = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get policyOverrideInput() {
    return this._policyOverride;
  }

  // preserve_counts - computed: false, optional: true, required: false
  private _preserveCounts?: boolean | cdktn.IResolvable; 
  public get preserveCounts() {
    return this.getBooleanAttribute('preserve_counts');
  }
  public set preserveCounts(value: boolean | cdktn.IResolvable) {
    this._preserveCounts = value;
  }
  public resetPreserveCounts() {
    this._preserveCounts = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get preserveCountsInput() {
    return this._preserveCounts;
  }

  // eval_priority - computed: false, optional: true, required: false
  private _evalPriority?: number; 
  public get evalPriority() {
    return this.getNumberAttribute('eval_priority');
  }
  public set evalPriority(value: number) {
    this._evalPriority = value;
  }
  public resetEvalPriority() {
    this._evalPriority = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get evalPriorityInput() {
    return this._evalPriority;
  }

  // fail_on_placement_failure - computed: false, optional: true, required: false
  private _failOnPlacementFailure?: boolean | cdktn.IResolvable; 
  public get failOnPlacementFailure() {
    return this.getBooleanAttribute('fail_on_placement_failure');
  }
  public set failOnPlacementFailure(value: boolean | cdktn.IResolvable) {
    this._failOnPlacementFailure = value;
  }
  public resetFailOnPlacementFailure() {
    this._failOnPlacementFailure = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get failOnPlacementFailureInput() {
    return this._failOnPlacementFailure;
  }

  // auto_promote_canaries - computed: false, optional: true, required: false
  private _autoPromoteCanaries?: boolean | cdktn.IResolvable; 
  public get autoPromoteCanaries() {
    return this.getBooleanAttribute('auto_promote_canaries');
  }
  public set autoPromoteCanaries(value: boolean | cdktn.IResolvable) {
    this._autoPromoteCanaries = value;
  }
  public resetAutoPromoteCanaries() {
    this._autoPromoteCanaries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get autoPromoteCanariesInput() {
    return this._autoPromoteCanaries;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // namespace - computed: true, optional: false, required: false
  public get namespace() {
    return this.getStringAttribute('namespace');
  }

  // region - computed: true, optional: false, required: false
  public get region() {
    return this.getStringAttribute('region');
  }

  // type - computed: true, optional: false, required: false
  public get type() {
    return this.getStringAttribute('type');
  }

  // datacenters - computed: true, optional: false, required: false
  public get datacenters() {
    return this.getListAttribute('datacenters');
  }

  // version - computed: true, optional: false, required: false
  public get version() {
    return this.getNumberAttribute('version');
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // job_modify_index - computed: true, optional: false, required: false
  public get jobModifyIndex() {
    return this.getNumberAttribute('job_modify_index');
  }

  // deployment_id - computed: true, optional: false, required: false
  public get deploymentId() {
    return this.getStringAttribute('deployment_id');
  }

  // deployment_status - computed: true, optional: false, required: false
  public get deploymentStatus() {
    return this.getStringAttribute('deployment_status');
  }

  // allocation_ids - computed: true, optional: false, required: false
  public get allocationIds() {
    return this.getListAttribute('allocation_ids');
  }

  // task_groups - computed: true, optional: false, required: false
  private _taskGroups = new JobTaskGroupsList(this, "task_groups", false);
  public get taskGroups() {
    return this._taskGroups;
  }

  // submit_time - computed: true, optional: false, required: false
  public get submitTime() {
    return this.getStringAttribute('submit_time');
  }

  // timeouts - computed: false, optional: true, required: false
  private _timeouts = new JobTimeoutsOutputReference(this, "timeouts");
  public get timeouts() {
    return this._timeouts;
  }
  public putTimeouts(value: JobTimeouts) {
    this._timeouts.internalValue = value;
  }
  public resetTimeouts() {
    this._timeouts.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutsInput() {
    return this._timeouts.internalValue;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      jobspec: cdktn.stringToTerraform(this._jobspec),
      hcl2_vars: cdktn.hashMapper(cdktn.stringToTerraform)(this._hcl2Vars),
      detach: cdktn.booleanToTerraform(this._detach),
      purge_on_destroy: cdktn.booleanToTerraform(this._purgeOnDestroy),
      deregister_on_destroy: cdktn.booleanToTerraform(this._deregisterOnDestroy),
      deregister_on_id_change: cdktn.booleanToTerraform(this._deregisterOnIdChange),
      rerun_if_dead: cdktn.booleanToTerraform(this._rerunIfDead),
      policy_override: cdktn.booleanToTerraform(this._policyOverride),
      preserve_counts: cdktn.booleanToTerraform(this._preserveCounts),
      eval_priority: cdktn.numberToTerraform(this._evalPriority),
      fail_on_placement_failure: cdktn.booleanToTerraform(this._failOnPlacementFailure),
      auto_promote_canaries: cdktn.booleanToTerraform(this._autoPromoteCanaries),
      timeouts: jobTimeoutsToTerraform(this._timeouts.internalValue),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      jobspec: {
        value: cdktn.stringToHclTerraform(this._jobspec),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      hcl2_vars: {
        value: cdktn.hashMapperHcl(cdktn.stringToHclTerraform)(this._hcl2Vars),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
      detach: {
        value: cdktn.booleanToHclTerraform(this._detach),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      purge_on_destroy: {
        value: cdktn.booleanToHclTerraform(this._purgeOnDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      deregister_on_destroy: {
        value: cdktn.booleanToHclTerraform(this._deregisterOnDestroy),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      deregister_on_id_change: {
        value: cdktn.booleanToHclTerraform(this._deregisterOnIdChange),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      rerun_if_dead: {
        value: cdktn.booleanToHclTerraform(this._rerunIfDead),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      policy_override: {
        value: cdktn.booleanToHclTerraform(this._policyOverride),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      preserve_counts: {
        value: cdktn.booleanToHclTerraform(this._preserveCounts),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      eval_priority: {
        value: cdktn.numberToHclTerraform(this._evalPriority),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      fail_on_placement_failure: {
        value: cdktn.booleanToHclTerraform(this._failOnPlacementFailure),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      auto_promote_canaries: {
        value: cdktn.booleanToHclTerraform(this._autoPromoteCanaries),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      timeouts: {
        value: jobTimeoutsToHclTerraform(this._timeouts.internalValue),
        isBlock: true,
        type: "struct",
        storageClassType: "JobTimeouts",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
