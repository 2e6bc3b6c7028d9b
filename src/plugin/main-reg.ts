#!/usr/bin/env node
/** terraform-provider-reg: the registry provider as a Terraform/OpenTofu plugin. */
import { regProvider } from '../provider/reg/provider';
import { pluginMain } from './serve';

pluginMain(regProvider);
