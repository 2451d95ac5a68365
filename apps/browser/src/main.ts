// The browser example: connect with a base URL and an API key, search a QnA system, and stream an
// agent's answer with its task updates as they arrive, optionally personalised with the asker's name.
import { streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { describeError, element, listItem, showStatus } from './dom.js';
import { type InPageService, startInPage } from './in-page.js';

const connectForm = element('#connect', HTMLFormElement);
const searchForm = element('#search', HTMLFormElement);
const askForm = element('#ask', HTMLFormElement);
const connectionStatus = element('#connection-status', HTMLElement);
const searchStatus = element('#search-status', HTMLElement);
const searchResults = element('#search-results', HTMLOListElement);
const systemSelect = element('#search select[name=systemId]', HTMLSelectElement);
const agentSelect = element('#ask select[name=agentId]', HTMLSelectElement);
const askStatus = element('#ask-status', HTMLElement);
const taskUpdates = element('#task-updates', HTMLOListElement);
const answer = element('#answer', HTMLElement);

// Development defaults from Vite's environment (`VITE_DATAWORKZ_BASE_URL`); the key is typed in.
element('#connect input[name=baseUrl]', HTMLInputElement).value =
  import.meta.env.VITE_DATAWORKZ_BASE_URL ?? '';

let dw: Dataworkz | undefined;
let inPage: InPageService | undefined;

if (new URLSearchParams(location.search).get('mode') === 'in-process') {
  showStatus(connectionStatus, 'Starting the emulator in this page…');
  startInPage().then(
    (service) => {
      inPage = service;
      element('#connect input[name=baseUrl]', HTMLInputElement).value = service.baseUrl;
      element('#connect input[name=apiKey]', HTMLInputElement).value = service.apiKey;
      showStatus(connectionStatus, 'The emulator runs in this page: connect to it, no server needed.');
    },
    (error: unknown) => showStatus(connectionStatus, describeError(error), true),
  );
}

function fillSelect(select: HTMLSelectElement, options: [value: string, label: string][]): void {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value)));
}

connectForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(connectForm);
  showStatus(connectionStatus, 'Connecting…');
  try {
    const client = new Dataworkz({
      baseUrl: String(form.get('baseUrl')),
      apiKey: String(form.get('apiKey')),
      // A local demo: the person using the page types the key. A real app uses `token` or a server.
      dangerouslyAllowBrowser: true,
      // In process: the emulator in this page answers; otherwise the browser's fetch.
      fetch: inPage?.fetch,
    });
    const [systems, agents] = await Promise.all([client.qna.list(), client.agents.list()]);
    fillSelect(
      systemSelect,
      Object.entries(systems).map(([id, name]) => [id, name]),
    );
    fillSelect(
      agentSelect,
      agents.map((agent) => [agent.agentId, agent.name]),
    );
    dw = client;
    searchForm.hidden = false;
    askForm.hidden = false;
    showStatus(
      connectionStatus,
      `Connected: ${Object.keys(systems).length} QnA systems, ${agents.length} agents.`,
    );
  } catch (error) {
    dw = undefined;
    searchForm.hidden = true;
    askForm.hidden = true;
    showStatus(connectionStatus, describeError(error), true);
  }
});

searchForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!dw) return;
  const form = new FormData(searchForm);
  searchResults.replaceChildren();
  showStatus(searchStatus, 'Searching…');
  try {
    const result = await dw.qna.search(String(form.get('systemId')), {
      query: String(form.get('query')),
      properties: { include_probe: false },
    });
    const hits = result.searchResultsList ?? [];
    searchResults.replaceChildren(
      ...hits.map((hit) => listItem(hit.data ?? '', `${hit.type ?? ''} · ${hit.source ?? ''}`)),
    );
    showStatus(searchStatus, `${hits.length} results for "${result.question ?? ''}".`);
  } catch (error) {
    showStatus(searchStatus, describeError(error), true);
  }
});

askForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!dw) return;
  const form = new FormData(askForm);
  taskUpdates.replaceChildren();
  answer.textContent = '';
  showStatus(askStatus, 'Asking…');
  try {
    // The name is optional: given, it goes to the agent as a context value; left empty, none is sent.
    const userName = String(form.get('userName') ?? '').trim();
    const run = streamAgent(dw, String(form.get('agentId')), {
      text: String(form.get('text')),
      ...(userName === '' ? {} : { contextValues: { userName } }),
    });
    // Each task update is shown the moment it arrives.
    for await (const agentEvent of run) {
      if (agentEvent.type === 'task-update') {
        const { message } = agentEvent.data;
        taskUpdates.append(listItem(typeof message === 'string' ? message : JSON.stringify(agentEvent.data)));
        showStatus(askStatus, `Working… ${taskUpdates.childElementCount} task updates`);
      }
    }
    const final = await run.finalAnswer();
    answer.textContent = final.answer;
    showStatus(askStatus, `Task ${final.state} after ${taskUpdates.childElementCount} task updates.`);
  } catch (error) {
    showStatus(askStatus, describeError(error), true);
  }
});
