// undici's Agent module, imported by its path (see transport-undici.ts): the class undici exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}
