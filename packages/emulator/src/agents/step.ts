/** One real step of a run, reported as it happens (the stream sends each as a task update). */
export interface AgentStep {
  type: 'SCENARIO_SELECTED' | 'TOOL_CALL' | 'COMPOSING';
  message: string;
  scenario?: string;
  tool?: string;
}
