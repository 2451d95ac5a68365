// Stream an agent's answer over A2A, the service's recommended call: task updates arrive while the
// agent works (scenario chosen, each tool call), then the final event carries the answer. A follow-up
// turn continues the same conversation through its contextId and taskId. A dropped connection is
// resumed on its own (a `resumed` event says so).
import { streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { excerpt, field, green, heading, statusLine } from '../support/output.js';
import { chooseAgentId } from '../support/target.js';
import { describeTaskUpdate } from '../support/task-update.js';

const dw = new Dataworkz();
const agentId = await chooseAgentId(dw);

heading('Turn 1: "Can I return order 1002?"');
const run = streamAgent(dw, agentId, { text: 'Can I return order 1002?' });
const status = statusLine();
let updates = 0;
// Breaking out of this loop (or run.abort()) closes the connection.
for await (const event of run) {
  if (event.type === 'task-update') {
    updates += 1;
    status.update(describeTaskUpdate(event.data));
  } else if (event.type === 'status' && !event.final) {
    status.update(`task ${event.state}`);
  } else if (event.type === 'resumed') {
    // The connection broke and the run got back to its task; the answer will be whole.
    status.update(`reconnected after ${event.gapMs} ms (via ${event.via})`);
  }
}
// Rejects with TaskFailedError when the task ends failed, with the service's reason.
const first = await run.finalAnswer();
status.done(green(`${first.state} after ${updates} task updates`));
field('answer', excerpt(first.answer, 400));

heading('Turn 2: a follow-up in the same conversation');
const followUp = streamAgent(dw, agentId, {
  text: 'And what is its status?',
  contextId: first.contextId,
  taskId: first.state === 'input-required' ? first.taskId : undefined,
});
const second = await followUp.finalAnswer();
field('state', second.state);
field('answer', excerpt(second.answer, 400));
