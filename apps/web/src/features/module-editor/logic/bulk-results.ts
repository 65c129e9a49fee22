/**
 * What the working area's Save All and Publish All say happened (issue 34 item 2): counted, one line first,
 * then the details. Both calls are all or nothing on the server (/module/saveList, /module/publishList), so a
 * refusal means nothing was saved or published; after a publication, the modules' states say what was published.
 */
export const BULK_RESULT_TEXTS = {
  nothingSaved: (refused: number, total: number) =>
    `Nothing was saved: ${refused} of ${total} ${total === 1 ? 'module was' : 'modules were'} refused, and Save All saves all or none.`,
  nothingPublished: (refused: number, total: number) =>
    `Nothing was published: ${refused} of ${total} ${total === 1 ? 'module was' : 'modules were'} refused, and Publish All publishes all or none.`,
} as const;

/** After a publication: "Published 2 · Not published 1 · Still being submitted 1" (the last only when some are). */
export function publishedSummary(states: readonly { status: string; rejected: boolean }[]): string {
  const published = states.filter((s) => s.status === 'SUBMITTED').length;
  const notPublished = states.filter((s) => s.status !== 'SUBMITTED' && s.status !== 'SUBMIT_IN_PROGRESS').length;
  const pending = states.filter((s) => s.status === 'SUBMIT_IN_PROGRESS').length;
  return [`Published ${published}`, `Not published ${notPublished}`, ...(pending ? [`Still being submitted ${pending}`] : [])].join(' · ');
}
