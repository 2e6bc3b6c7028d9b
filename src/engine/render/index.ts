export * from './model';
export { renderText, renderResourceText, type TextOptions } from './text';
export { renderJson, planJson, EXTENSION_KEY, PLAN_FORMAT_VERSION, type JsonOptions } from './json';
export { renderMarkdown, GITHUB_COMMENT_LIMIT, type MarkdownOptions } from './markdown';
export {
  createProgress,
  DeployProgress,
  describeGroups,
  formatElapsed,
  type ProgressOptions,
  type ProgressStream,
  type Outcome,
} from './progress';
export { schedulerSummary, schedulerLines, placementFailures, describeUpdates } from './scheduler';
export { Redactor, collectSecrets, SENSITIVE_TEXT } from './sensitive';
export { makeStyle, stripAnsi, wantsColor, type Style } from './style';
export { resourceLines, outputLines, layoutLine, type DiffLine } from './diff';
