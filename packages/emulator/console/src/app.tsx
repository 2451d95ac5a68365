import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { DataPage } from './data-page.js';
import { FaultsPage } from './faults-page.js';
import { LogPage } from './log-page.js';
import { PlaygroundPage } from './playground-page.js';

const sections = [
  {
    href: '/console',
    label: 'Data',
    matches: (path: string) => path === '/console' || path.startsWith('/console/data'),
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

function NotFound() {
  return (
    <section>
      <h1>No such view</h1>
      <p>
        This console has four views: <a href="/console">Data</a>, <a href="/console/playground">Playground</a>
        , <a href="/console/log">Request log</a> and <a href="/console/faults">Faults and limits</a>.
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
        <p class="base" title="Point clients at this address, with the API key the emulator printed">
          DATAWORKZ_BASE_URL={location.origin}
        </p>
      </header>
      <main id="main">
        <Router>
          <Route path="/console" component={DataPage} />
          <Route path="/console/data/:kind/:id" component={DataPage} />
          <Route path="/console/playground" component={PlaygroundPage} />
          <Route path="/console/log" component={LogPage} />
          <Route path="/console/log/:id" component={LogPage} />
          <Route path="/console/faults" component={FaultsPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </LocationProvider>
  );
}
