// The contract names no fields of task updates: these are the service's own, from the vendor's step traces.

/** The kind of step a task update reports; `string & {}` offers the known ones without closing the type. */
export type TaskUpdateType =
  | 'Scenario Selection'
  | 'Planning'
  | 'Tool Execution'
  | 'Join'
  | 'Iteration'
  | (string & {});

/** The kind of tool a `Tool Execution` step runs; others arrive as sent. */
export type TaskUpdateToolType = 'dw-data-api' | 'llm' | 'qna' | 'call-agent' | (string & {});

/**
 * One step of the agent's run, as the service sent it in a `SVC_STATUS_UPDATE` data part. Undeclared
 * fields still arrive: read them with `WithUnknownFields<TaskUpdate>` from `@dataworkz/client`.
 */
// A type alias, not an interface, so a TaskUpdate is still assignable to `{ [key: string]: unknown }`.
export type TaskUpdate = {
  /** The kind of step. */
  type: TaskUpdateType;
  /** What the agent is doing, for a person. */
  message?: string;
  /** The step's name: the scenario, the tool, `Plan`, `Agent Response`. */
  name?: string;
  /** The scenario selected. */
  scenario?: string;
  /** The tool the step calls. */
  tool?: string;
  /** The kind of tool (`dw-data-api`, `llm`, `qna`, `call-agent`). */
  toolType?: TaskUpdateToolType;
  /** The tool's id. */
  toolId?: string;
  /** The id of this run of the tool. */
  executionId?: string;
  /** The step's progress, e.g. `in_progress`, `completed`, `failed`. */
  status?: string;
  /** The LLM's reasoning for the step (scenario selection, planning, join). */
  llmThought?: string;
  /** More about the step, by name. */
  metadata?: { [key: string]: unknown };
};
