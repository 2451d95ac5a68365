import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { keyNeeded } from './api.js';
import { DataPage } from './data-page.js';
import { FaultsPage } from './faults-page.js';
import { KeyForm } from './key-form.js';
import { liveProblem, liveState } from './live.js';
import { LogPage } from './log-page.js';
import { modeText } from './mode-panel.js';
import { OverviewPage } from './overview-page.js';
import { PlaygroundPage } from './playground-page.js';

const sections = [
  {
    href: '/console',
    label: 'Overview',
    matches: (path: string) => path === '/console' || path === '/console/',
  },
  {
    href: '/console/data',
    label: 'Data',
    matches: (path: string) => path.startsWith('/console/data'),
  },
  {
    href: '/console/playground',
    label: 'Playground',
    matches: (path: string) => path.startsWith('/console/playground'),
  },
  { href: '/console/log', label: 'Request log', matches: (path: string) => path.startsWith('/console/log') },
  {
    href: '/console/faults',
    label: 'Faults and limits',
    matches: (path: string) => path.startsWith('/console/faults'),
  },
];

function Navigation() {
  const { path } = useLocation();
  return (
    <nav aria-label="Console sections">
      <ul>
        {sections.map((s) => (
          <li key={s.href}>
            <a class="tab" href={s.href} aria-current={s.matches(path) ? 'page' : undefined}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What is in force right now, on every view, from the live channel. */
function LiveStatus() {
  const state = liveState.value;
  if (liveProblem.value) {
    return (
      <p class="live lost" role="status">
        Not connected: what the console shows may be out of date
      </p>
    );
  }
  if (!state) return <p class="live" role="status" />;
  const faults = state.faults.length;
  return (
    <p class="live" role="status" data-testid="live-status">
      <a href="/console/faults" class={faults > 0 || state.rateLimit.perSecond !== null ? 'on' : undefined}>
        {faults === 0 ? 'no faults' : faults === 1 ? '1 fault in force' : `${faults} faults in force`}
        {state.rateLimit.perSecond !== null ? ', a rate limit' : ''}
      </a>
      {' · '}
      {state.openStreams === 1 ? '1 stream open' : `${state.openStreams} streams open`}
      {state.mode ? (
        <>
          {' · '}
          <a
            href="/console"
            class={state.mode.mode === 'emulating' ? undefined : 'on'}
            data-testid="live-mode"
          >
            {modeText(state.mode)}
          </a>
        </>
      ) : null}
    </p>
  );
}

function NotFound() {
  return (
    <section>
      <h1>No such view</h1>
      <p>
        This console has five views: <a href="/console">Overview</a>, <a href="/console/data">Data</a>,{' '}
        <a href="/console/playground">Playground</a>, <a href="/console/log">Request log</a> and{' '}
        <a href="/console/faults">Faults and limits</a>.
      </p>
    </section>
  );
}

export function App() {
  return (
    <LocationProvider scope="/console">
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header class="top">
        <p class="brand">
          Dataworkz emulator <span>console</span>
        </p>
        <Navigation />
        <LiveStatus />
      </header>
      <main id="main">
        {/* Until the emulator has a key from this tab, the views would only show its refusals. */}
        {keyNeeded.value ? (
          <KeyForm />
        ) : (
          <Router>
            <Route path="/console" component={OverviewPage} />
            <Route path="/console/data" component={DataPage} />
            <Route path="/console/data/:kind/:id" component={DataPage} />
            <Route path="/console/playground" component={PlaygroundPage} />
            <Route path="/console/log" component={LogPage} />
            <Route path="/console/log/:id" component={LogPage} />
            <Route path="/console/faults" component={FaultsPage} />
            <Route default component={NotFound} />
          </Router>
        )}
      </main>
    </LocationProvider>
  );
}
