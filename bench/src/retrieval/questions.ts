/**
 * Questions for the retrieval evaluation, phrased without the words of the passages that answer them
 * (paraphrases and synonyms), each with what marks a relevant passage: its document's title begins with
 * `title` and, when given, its text contains `text`. Product documentation repeats each topic for three
 * versions; any version's passage counts.
 */
export interface EvaluationQuestion {
  readonly system: 'Product Documentation' | 'Customer Support Knowledge Base';
  readonly question: string;
  readonly relevant: readonly { readonly title: string; readonly text?: string }[];
}

const docs = 'Product Documentation';
const kb = 'Customer Support Knowledge Base';

export const evaluationQuestions: readonly EvaluationQuestion[] = [
  {
    system: kb,
    question: 'how do I get my money back',
    relevant: [
      { title: 'Refund timing' },
      { title: 'Returns policy', text: 'refund' },
      { title: 'Exchanging an item' },
    ],
  },
  {
    system: kb,
    question: 'when will the cash reach my account after I send something back',
    relevant: [{ title: 'Refund timing' }],
  },
  { system: kb, question: 'my package showed up smashed', relevant: [{ title: 'Damaged deliveries' }] },
  {
    system: kb,
    question: 'how long until my purchase is delivered',
    relevant: [{ title: 'Shipping times' }],
  },
  { system: kb, question: 'where is my parcel right now', relevant: [{ title: 'Tracking a shipment' }] },
  {
    system: kb,
    question: 'the device broke, is the repair free',
    relevant: [{ title: 'Warranty coverage' }],
  },
  {
    system: kb,
    question: 'can I still stop my purchase before it leaves',
    relevant: [{ title: 'Cancelling an order' }],
  },
  { system: kb, question: 'which credit cards do you take', relevant: [{ title: 'Payment methods' }] },
  {
    system: kb,
    question: 'what perks come with the premium level',
    relevant: [{ title: 'Membership tiers' }],
  },
  {
    system: kb,
    question: 'what hours can I call someone for help',
    relevant: [{ title: 'Contacting support' }],
  },
  {
    system: kb,
    question: 'swap the product for a different one',
    relevant: [{ title: 'Exchanging an item' }],
  },
  {
    system: kb,
    question: 'I live in Germany, how many days to send goods back by law',
    relevant: [{ title: 'Returns in the EU' }],
  },
  {
    system: kb,
    question: 'erase everything you store about me',
    relevant: [{ title: 'Privacy and data requests' }],
  },
  { system: kb, question: 'how should I wash the sensors', relevant: [{ title: 'Sensor Kit care guide' }] },
  {
    system: kb,
    question: 'setting up the hub for the first time',
    relevant: [{ title: 'Gateway quick start' }],
  },
  {
    system: kb,
    question: 'when do I pass a case to a senior engineer',
    relevant: [{ title: 'Escalating a ticket' }],
  },
  {
    system: kb,
    question: 'can I send back an unwrapped program',
    relevant: [{ title: 'Returns policy', text: 'software' }],
  },
  {
    system: kb,
    question: 'how fast do you reply to complaints',
    relevant: [{ title: 'Contacting support', text: 'answered' }],
  },
  { system: docs, question: 'I forgot my login credentials', relevant: [{ title: 'Resetting a password' }] },
  {
    system: docs,
    question: 'how long is the recovery email valid',
    relevant: [{ title: 'Resetting a password', text: 'expires' }],
  },
  {
    system: docs,
    question: 'hardware requirements of the setup program',
    relevant: [{ title: 'Installing Nimbus', text: 'memory' }],
  },
  {
    system: docs,
    question: 'log in with our corporate identity provider',
    relevant: [{ title: 'Configuring single sign-on' }],
  },
  {
    system: docs,
    question: 'recover from yesterday’s snapshot',
    relevant: [{ title: 'Backup and restore' }],
  },
  {
    system: docs,
    question: 'how many calls per minute may a client make',
    relevant: [{ title: 'API rate limits' }],
  },
  {
    system: docs,
    question: 'download a spreadsheet of my charts',
    relevant: [{ title: 'Exporting reports' }],
  },
  {
    system: docs,
    question: 'moving to a newer release without losing anything',
    relevant: [{ title: 'Upgrading Nimbus' }],
  },
  { system: docs, question: 'what changed in the latest version', relevant: [{ title: 'Release notes' }] },
  {
    system: docs,
    question: 'how often do the graphs update',
    relevant: [{ title: 'Building dashboards', text: 'refresh' }],
  },
  {
    system: docs,
    question: 'get warned by email when a value goes too high',
    relevant: [{ title: 'Alerts and notifications' }],
  },
  {
    system: docs,
    question: 'who is allowed to edit what',
    relevant: [{ title: 'User roles and permissions' }],
  },
  { system: docs, question: 'hook up our database', relevant: [{ title: 'Data connectors' }] },
  {
    system: docs,
    question: 'the import from our warehouse keeps failing',
    relevant: [{ title: 'Troubleshooting sync errors' }],
  },
  { system: docs, question: 'history of who signed in and when', relevant: [{ title: 'Audit logs' }] },
  {
    system: docs,
    question: 'silence a warning during planned downtime',
    relevant: [{ title: 'Alerts and notifications', text: 'Mute' }],
  },
];
