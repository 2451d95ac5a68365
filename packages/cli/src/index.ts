export { ExitCode, type ExitCodeValue, UsageError } from './exit-codes.js';
export { main } from './main.js';
