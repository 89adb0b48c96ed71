/** One thing wrong with a rules or classification table; `row` as the person sees it. */
export type RuleProblem = { row?: number; message: string }

/** A person's cell in a message, quoted: whole when short, its start when long. */
export function quoted(text: string): string {
  return text.length > 40 ? `'${text.slice(0, 40)}…'` : `'${text}'`
}

export function describeProblem(problem: RuleProblem): string {
  return problem.row === undefined ? problem.message : `row ${problem.row}: ${problem.message}`
}

/** Rules that cannot be used, with every problem found; the message is the first one. */
export class RulesError extends Error {
  readonly problems: RuleProblem[]

  constructor(problems: RuleProblem[]) {
    const first = problems[0] ? describeProblem(problems[0]) : 'the rules are not valid'
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
    super(`${first}${more}`)
    this.name = 'RulesError'
    this.problems = problems
  }
}
