#!/usr/bin/env node
/** terraform-provider-sched: the scheduler provider as a Terraform/OpenTofu plugin. */
import { schedProvider } from '../provider/sched/provider';
import { pluginMain } from './serve';

pluginMain(schedProvider);
