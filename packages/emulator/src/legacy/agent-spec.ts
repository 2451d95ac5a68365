import { HttpError } from '../http/errors.js';

/** One scenario of a posted agent spec, as far as the emulator reads it. */
export interface SpecScenario {
  name: string;
  description: string;
  examples: string[];
  /** Whether the scenario calls tools; the emulator answers those from the system's corpus. */
  usesTools: boolean;
}

/** The `agentSpec` of the legacy call-agent request: an agent defined inline by its caller. */
export interface AgentSpec {
  scenarios: SpecScenario[];
  /** Said when no scenario fits the text. */
  scenarioSelectionFailureMessage?: string;
}

const badBody = (message: string) => new HttpError(400, message, {}, 'BAD_REQUEST_BODY');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badBody(`${where} must be a string`);
  return value;
}

function readScenario(value: unknown, i: number): SpecScenario {
  const where = `agentSpec.scenarios[${i}]`;
  if (!isObject(value)) throw badBody(`${where} must be an object`);
  const { name, description, examples, toolRefs } = value;
  if (typeof name !== 'string' || name.trim() === '')
    throw badBody(`${where}.name must be a non-empty string`);
  if (examples !== undefined && examples !== null) {
    if (!Array.isArray(examples) || !examples.every((e) => typeof e === 'string'))
      throw badBody(`${where}.examples must be an array of strings`);
  }
  if (toolRefs !== undefined && toolRefs !== null && !Array.isArray(toolRefs))
    throw badBody(`${where}.toolRefs must be an array`);
  return {
    name,
    description: optionalString(description, `${where}.description`) ?? '',
    examples: (examples as string[] | undefined | null) ?? [],
    usesTools: Array.isArray(toolRefs) && toolRefs.length > 0,
  };
}

/**
 * Reads the `agentSpec` the vendor's demo clients post: `persona`, `scenarioSelectionFailureMessage`,
 * `scenarios[]` (`name`, `description`, `examples`, `instructions`, `toolRefs`) and `tools[]`. Only
 * what selects a scenario and phrases the answer is read; the rest (tool definitions, their data) is
 * accepted unread, as no tool runs in the emulator.
 */
export function readAgentSpec(value: unknown): AgentSpec {
  if (!isObject(value)) throw badBody('agentSpec must be a JSON object');
  const { scenarios, scenarioSelectionFailureMessage } = value;
  if (!Array.isArray(scenarios) || scenarios.length === 0)
    throw badBody('agentSpec.scenarios must be a non-empty array');
  const failure = optionalString(
    scenarioSelectionFailureMessage,
    'agentSpec.scenarioSelectionFailureMessage',
  );
  return {
    scenarios: scenarios.map(readScenario),
    ...(failure?.trim() ? { scenarioSelectionFailureMessage: failure } : {}),
  };
}
