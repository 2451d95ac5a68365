import { stableId } from './ids.js';
import type { CorpusDocument, DocumentFormat, QnaSystem } from './model.js';

type Version = '1.2' | '2.0' | '2.1';

interface Topic {
  slug: string;
  title: string;
  category: string;
  product: 'Nimbus Server' | 'Nimbus Cloud';
  /** Paragraphs; `{v}` is replaced by the version. */
  text: (v: Version) => string[];
}

const versions: Version[] = ['1.2', '2.0', '2.1'];
const yearOf: Record<Version, number> = { '1.2': 2023, '2.0': 2025, '2.1': 2026 };
const formats: DocumentFormat[] = ['pdf', 'docx', 'txt', 'md', 'html'];

const pick = <T>(v: Version, values: Record<Version, T>): T => values[v];

const topics: Topic[] = [
  {
    slug: 'install',
    title: 'Installing Nimbus',
    category: 'setup',
    product: 'Nimbus Server',
    text: (v) => [
      `Nimbus ${v} installs with the nimbus-installer package: run nimbus install --edition standard on the host. The installer needs 8 GB of memory and 20 GB of free disk space.`,
      pick(v, {
        '1.2': 'Version 1.2 requires Java 11 on the host and runs as a system service.',
        '2.0':
          'Version 2.0 ships as a container image; the installer pulls it and starts it with the bundled compose file.',
        '2.1': 'Version 2.1 adds native ARM64 builds, so it installs on Graviton and Apple silicon hosts.',
      }),
      'After installing, open the console on port 8443 and sign in with the administrator account created during setup.',
    ],
  },
  {
    slug: 'password-reset',
    title: 'Resetting a password',
    category: 'security',
    product: 'Nimbus Cloud',
    text: (v) => [
      'To reset your password, open Settings and choose Security, then select Reset password. Nimbus emails a reset link to the address on your profile.',
      `In Nimbus ${v} the reset link expires after ${pick(v, { '1.2': '24 hours', '2.0': '1 hour', '2.1': '30 minutes' })}; request a new link if it has expired.`,
      'Administrators can force a password reset for any user from the Users page.',
    ],
  },
  {
    slug: 'sso',
    title: 'Configuring single sign-on',
    category: 'security',
    product: 'Nimbus Cloud',
    text: (v) => [
      `Nimbus ${v} supports single sign-on with ${pick(v, { '1.2': 'SAML 2.0', '2.0': 'SAML 2.0 and OpenID Connect', '2.1': 'SAML 2.0, OpenID Connect and SCIM user provisioning' })}.`,
      'To configure single sign-on, open Settings, choose Authentication and upload your identity provider metadata. Test the connection before enforcing it for all users.',
    ],
  },
  {
    slug: 'backup',
    title: 'Backup and restore',
    category: 'operations',
    product: 'Nimbus Server',
    text: (v) => [
      `Nimbus ${v} takes a nightly backup of the metadata database at 02:00 server time and keeps ${pick(v, { '1.2': '7', '2.0': '14', '2.1': '30' })} days of backups.`,
      'To restore, stop the service, run nimbus restore --from <backup-file> and start the service again. Restores replace all dashboards and alerts with those of the backup.',
    ],
  },
  {
    slug: 'rate-limits',
    title: 'API rate limits',
    category: 'api',
    product: 'Nimbus Cloud',
    text: (v) => [
      `The Nimbus ${v} REST API allows ${pick(v, { '1.2': '600', '2.0': '1200', '2.1': '3000' })} requests per minute for each API key.`,
      'Requests over the limit receive HTTP 429 with a Retry-After header giving the seconds to wait. Clients should back off and retry after that delay.',
    ],
  },
  {
    slug: 'export',
    title: 'Exporting reports',
    category: 'reporting',
    product: 'Nimbus Server',
    text: (v) => [
      `Reports export to ${pick(v, { '1.2': 'CSV and PDF', '2.0': 'CSV, PDF and Excel', '2.1': 'CSV, PDF, Excel and Parquet' })} in Nimbus ${v}.`,
      'To export a report, open it, choose Export and pick a format. Scheduled exports are emailed to the report subscribers.',
    ],
  },
  {
    slug: 'upgrade',
    title: 'Upgrading Nimbus',
    category: 'setup',
    product: 'Nimbus Server',
    text: (v) => [
      pick(v, {
        '1.2': 'Nimbus 1.2 upgrades in place from 1.1: install the new package and restart the service.',
        '2.0':
          'Upgrading to Nimbus 2.0 from 1.2 migrates the metadata database to the new schema; take a backup first, because the migration cannot be undone.',
        '2.1':
          'Upgrading to Nimbus 2.1 from 2.0 is a rolling upgrade with no downtime; upgrades from 1.2 must pass through 2.0 first.',
      }),
      'Read the release notes of the target version before upgrading.',
    ],
  },
  {
    slug: 'release-notes',
    title: 'Release notes',
    category: 'release',
    product: 'Nimbus Server',
    text: (v) => [
      pick(v, {
        '1.2':
          'Nimbus 1.2 adds scheduled exports, audit logs for sign-ins and a faster query engine for dashboards.',
        '2.0':
          'Nimbus 2.0 moves to container images, adds OpenID Connect, Snowflake and BigQuery connectors, and doubles the API rate limit.',
        '2.1':
          'Nimbus 2.1 adds ARM64 builds, SCIM provisioning, MongoDB and Kafka connectors, Parquet exports and rolling upgrades.',
      }),
      `Known issues in ${v} are listed on the status page.`,
    ],
  },
  {
    slug: 'dashboards',
    title: 'Building dashboards',
    category: 'reporting',
    product: 'Nimbus Cloud',
    text: (v) => [
      `A Nimbus ${v} dashboard holds up to ${pick(v, { '1.2': '12', '2.0': '24', '2.1': '48' })} widgets. Add a widget with Add, pick a data source and a chart type.`,
      'Dashboards refresh every five minutes by default; set a different refresh interval in the dashboard settings.',
    ],
  },
  {
    slug: 'alerts',
    title: 'Alerts and notifications',
    category: 'operations',
    product: 'Nimbus Cloud',
    text: (v) => [
      `Alerts fire when a metric crosses a threshold. Nimbus ${v} sends notifications by ${pick(v, { '1.2': 'email', '2.0': 'email and Slack', '2.1': 'email, Slack and webhooks' })}.`,
      'Mute an alert for a maintenance window from the alert menu; muted alerts still record their events.',
    ],
  },
  {
    slug: 'roles',
    title: 'User roles and permissions',
    category: 'security',
    product: 'Nimbus Cloud',
    text: (v) => [
      `Nimbus ${v} has the roles Viewer, Editor and Administrator${v === '1.2' ? '' : ', plus custom roles built from individual permissions'}.`,
      'Viewers can open dashboards, Editors can change them, and Administrators manage users, billing and settings.',
    ],
  },
  {
    slug: 'connectors',
    title: 'Data connectors',
    category: 'integration',
    product: 'Nimbus Cloud',
    text: (v) => [
      `Nimbus ${v} connects to ${pick(v, { '1.2': 'PostgreSQL and MySQL', '2.0': 'PostgreSQL, MySQL, Snowflake and BigQuery', '2.1': 'PostgreSQL, MySQL, Snowflake, BigQuery, MongoDB and Kafka' })}.`,
      'Add a connector from Data sources, enter the connection details and test the connection. Credentials are stored encrypted.',
    ],
  },
  {
    slug: 'sync-errors',
    title: 'Troubleshooting sync errors',
    category: 'operations',
    product: 'Nimbus Server',
    text: (v) => [
      `When a data source fails to sync, Nimbus ${v} marks it red and retries ${pick(v, { '1.2': 'three', '2.0': 'five', '2.1': 'ten' })} times with growing delays.`,
      'Most sync errors come from expired credentials or a firewall blocking the connection; check the sync log under Data sources for the exact error.',
    ],
  },
  {
    slug: 'audit-logs',
    title: 'Audit logs',
    category: 'security',
    product: 'Nimbus Server',
    text: (v) => [
      `Audit logs record sign-ins, permission changes and exports. Nimbus ${v} keeps audit logs for ${pick(v, { '1.2': '90 days', '2.0': '1 year', '2.1': '2 years' })}.`,
      'Download audit logs as CSV from Settings, Audit.',
    ],
  },
];

/** The product documentation corpus: every topic for every version, in rotating formats. */
function productDocuments(): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  topics.forEach((topic, t) => {
    versions.forEach((v, i) => {
      const format = formats[(t * versions.length + i) % formats.length] ?? 'txt';
      documents.push({
        documentId: stableId(`product-docs/${topic.slug}/${v}`),
        title: `${topic.title} (Nimbus ${v})`,
        format,
        paragraphs: topic.text(v),
        metadata: { product: topic.product, version: v, year: yearOf[v], category: topic.category },
        ...(format === 'html' ? { url: `https://docs.nimbus.example/${v}/${topic.slug}` } : {}),
      });
    });
  });
  return documents;
}

export const productDocsSystemId = stableId('systems/product-docs');

export function productDocsSystem(llms: Record<string, string>): QnaSystem {
  return {
    systemId: productDocsSystemId,
    name: 'Product Documentation',
    prompt: 'Answer from the Nimbus product manuals only, and cite them.',
    database: 'nimbus_docs',
    dataset: 'manuals',
    createdBy: 'Dana Reyes',
    createdDate: '2026-01-10T08:00:00Z',
    modifiedBy: 'Dana Reyes',
    modifiedDate: '2026-02-01T12:30:00Z',
    llms,
    fields: [
      { name: 'product', type: 'string', description: 'Product the document applies to.' },
      { name: 'version', type: 'string', description: 'Product version the document applies to.' },
      { name: 'year', type: 'integer', description: 'Year of publication.' },
      { name: 'category', type: 'string', description: 'Documentation category.' },
    ],
    documents: productDocuments(),
  };
}
