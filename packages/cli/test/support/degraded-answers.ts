import { type FaultRule, seed } from '@dataworkz/emulator';

const supportKb = seed.systems.supportKb;

/**
 * The next `times` answers as a degraded deployment would give them: its LLM handed a chunk about
 * something else, so it says it does not know and every retrieval score drops to nothing.
 */
export function degradedAnswers(times: number): FaultRule {
  const unrelated = 'Nimbus dashboards can be exported as PDF from the reports page.';
  return {
    route: 'answerQnaQuestion',
    times,
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({
      question: 'q',
      answer: '\n\nI do not know.',
      context: [{ link: 's3a://bucket/reports.md', data: unrelated, source: 'docs' }],
      systemId: supportKb.systemId,
      systemName: supportKb.name,
      type: 'qna',
      questionUuid: '00000000-0000-4000-8000-000000000000',
      status: 'COMPLETED',
      probe: {
        id: 'pipeline',
        children: [{ id: 'MERGE_NEIGHBOURING_CONTEXT', data: { Input: [{ Content: unrelated }] } }],
      },
    }),
  };
}
