/** One thing wrong with a rules or classification table; `row` as the person sees it. */
export type RuleProblem = { row?: number; message: string }

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
