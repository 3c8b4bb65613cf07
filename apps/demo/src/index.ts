export { runCli } from './cli.js';
export { ConfigError, DEFAULT_PORT, type DemoConfig, ENVIRONMENT, readConfig } from './config.js';
export { type Demo, type DemoOptions, startDemo } from './demo.js';
