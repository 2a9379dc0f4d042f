// The proxy's programmatic API: `import { startProxy } from 'client-records-mock/proxy'`.
// A subpath of its own, since server/ (the package's main entry) must not import proxy/ (PLAN.md, rules of direction).
export { startProxy, type ProxyResult, type RunningProxy, type StartProxyOptions } from './proxy';
export { ProxySettingError, FALLBACK_CAUSES, type FailOn, type FallbackCause, type ProxyOptions, type ProxySettings } from './settings';
export type { JournalEntry } from './journal';
export type { ProxyReport } from './report';
export type { components as proxyComponents, paths as proxyPaths } from '../generated/proxy';
