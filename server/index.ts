// The package's programmatic API: `import { startServer } from 'client-records-mock'`.
export { createMock, startServer, type Mock, type RunningMock } from './mock';
export { ConfigError, type Config, type ConfigOptions } from './config';
export type { components, operations, paths } from '../generated/openapi';
