/**
 * The kinds of bill line, in their own module: the job (through the change bill) needs only
 * these, so the screens that load jobs do not carry the whole BOQ schema with them.
 */
export const BILL_KINDS = ['count', 'length', 'area'] as const
export type BillKind = (typeof BILL_KINDS)[number]
