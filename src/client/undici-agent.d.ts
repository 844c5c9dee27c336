/**
 * undici's Agent module on its own (`lib/dispatcher/agent.js`, CommonJS: `module.exports =
 * Agent`), which the package's types do not describe; it is the Agent the entry point exports.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}
