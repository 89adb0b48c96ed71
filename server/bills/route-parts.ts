import type { Context } from 'hono'
import type { BillIssue, ProjectBill, ProjectChangeBill } from '#contract/project-bills.ts'
import type { WithCloud } from '../auth/cloud-access.ts'
import type { CloudBackend, CloudContext } from '../cloud/types.ts'
import { AppError } from '../errors.ts'
import type { BillPool } from '../jobs/bill-pool.ts'
import type { JobStore } from '../jobs/types.ts'
import type { RulesStore } from '../rules/store/types.ts'
import type { KeptPricings } from './kept-pricings.ts'
import type { ProjectPlace } from './project-place.ts'
import type { BillStore, IssueRecord } from './types.ts'

/** What the project bills' routes share: what they are given, the bill a path names, the words. */

/** What the project bills' routes are given. */
export interface BillRoutesOptions {
  bills: BillStore
  jobs: JobStore
  rules: RulesStore
  cloud: Pick<CloudBackend, 'contents' | 'versions' | 'upload'>
  pool: BillPool
  projectPlace: ProjectPlace
  /** The drawings' pricings kept between requests (one for the server; a fresh one else). */
  kept?: KeptPricings
  withCloud: WithCloud
}

/** The bill of a request's path, in a project the person sees (404 for either). */
export function billFinder(bills: BillStore, projectPlace: ProjectPlace) {
  return async function billOf(
    c: Context,
    ctx: CloudContext,
  ): Promise<{ bill: ProjectBill; place: { hubId: string } }> {
    const projectId = c.req.param('projectId') ?? ''
    const place = await projectPlace(ctx, projectId)
    const bill = await bills.get(projectId, c.req.param('billId') ?? '')
    return { bill: bill ?? noSuchBill(), place }
  }
}

export type BillOf = ReturnType<typeof billFinder>

export function noSuchBill(): never {
  throw new AppError(404, 'There is no such project bill.')
}

export function issueNumber(text: string | undefined, name: string): number {
  const number = Number(text)
  if (!text || !/^\d+$/.test(text) || !Number.isSafeInteger(number) || number < 1) {
    throw new AppError(
      400,
      `${name} must be an issue number (1, 2, …)${name === 'to' ? ' or current' : ''}.`,
    )
  }
  return number
}

export function issueNamed(issues: IssueRecord[], number: number): IssueRecord {
  const issue = issues.find((one) => one.number === number)
  if (!issue) throw new AppError(404, `This bill has no issue ${number}.`)
  return issue
}

export function sideOf(issue: IssueRecord): ProjectChangeBill['from'] {
  return { number: issue.number, name: issue.name, issuedAt: issue.issuedAt }
}

/** An issue as it is answered: without the figures it froze. */
export function issueOf({ figures: _figures, ...issue }: IssueRecord): BillIssue {
  return issue
}

export function personOf(ctx: CloudContext): string {
  return ctx.user.name || ctx.user.userId
}

export function unique(ids: string[] | undefined): string[] {
  return [...new Set(ids ?? [])]
}
