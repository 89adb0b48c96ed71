import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import {
  AssembledBillSchema,
  BillIssueSchema,
  type IssuedBill,
  IssuedBillSchema,
  type NewProjectBill,
  type ProjectBill,
  ProjectBillSchema,
  ProjectChangeBillSchema,
} from '#contract/project-bills.ts'
import { api, apiUrl } from '../../../lib/api-client'

export type {
  AssembledBill,
  BillDrawing,
  BillIssue,
  IssuedBill,
  ProjectBill,
  ProjectChangeBill,
  ProjectItem,
} from '#contract/project-bills.ts'

const billsPath = (projectId: string) => `api/boq/projects/${encodeURIComponent(projectId)}/bills`
const billPath = (projectId: string, billId: string) =>
  `${billsPath(projectId)}/${encodeURIComponent(billId)}`

/** One side of a comparison: an issue's number, or the bill as it is now. */
export type CompareTo = number | 'current'

/** Query keys and fetchers of the project bills, general → specific. */
export const projectBillQueries = {
  all: () => ['project-bills'] as const,
  /** A project's bills, oldest first. */
  list: (projectId: string) =>
    queryOptions({
      queryKey: [...projectBillQueries.all(), 'list', { projectId }] as const,
      queryFn: async ({ signal }) =>
        v.parse(v.array(ProjectBillSchema), await api.get(billsPath(projectId), { signal }).json()),
    }),
  /** The bill assembled from its drawings' kept bills, as it is now. */
  bill: (projectId: string, billId: string) =>
    queryOptions({
      queryKey: [...projectBillQueries.all(), 'bill', { projectId, billId }] as const,
      queryFn: async ({ signal }) =>
        v.parse(AssembledBillSchema, await api.get(billPath(projectId, billId), { signal }).json()),
    }),
  issues: (projectId: string, billId: string) =>
    queryOptions({
      queryKey: [...projectBillQueries.all(), 'issues', { projectId, billId }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          v.array(BillIssueSchema),
          await api.get(`${billPath(projectId, billId)}/issues`, { signal }).json(),
        ),
    }),
  /** The project change bill from an issue to another, or to now. */
  compare: (projectId: string, billId: string, from: number, to: CompareTo) =>
    queryOptions({
      queryKey: [...projectBillQueries.all(), 'compare', { projectId, billId, from, to }] as const,
      queryFn: async ({ signal }) =>
        v.parse(
          ProjectChangeBillSchema,
          await api
            .get(`${billPath(projectId, billId)}/compare`, {
              searchParams: { from, to },
              signal,
            })
            .json(),
        ),
    }),
}

export async function createProjectBill(
  projectId: string,
  body: NewProjectBill,
): Promise<ProjectBill> {
  return v.parse(ProjectBillSchema, await api.post(billsPath(projectId), { json: body }).json())
}

export async function issueProjectBill(
  projectId: string,
  billId: string,
  name: string,
): Promise<IssuedBill> {
  return v.parse(
    IssuedBillSchema,
    await api.post(`${billPath(projectId, billId)}/issues`, { json: { name } }).json(),
  )
}

/** Where a bill, an issue or a comparison downloads as a file. */
export const projectBillDownloads = {
  bill: (projectId: string, billId: string, format: 'xlsx' | 'csv') =>
    apiUrl(`${billPath(projectId, billId)}?format=${format}`),
  issue: (projectId: string, billId: string, number: number, format: 'xlsx' | 'csv') =>
    apiUrl(`${billPath(projectId, billId)}/issues/${number}?format=${format}`),
  compare: (
    projectId: string,
    billId: string,
    from: number,
    to: CompareTo,
    format: 'xlsx' | 'csv',
  ) => apiUrl(`${billPath(projectId, billId)}/compare?from=${from}&to=${to}&format=${format}`),
}
