import { type CloudResource, VERSION_NOT_WHOLE } from '#contract/cloud.ts'
import { formatDateTime } from '../../../lib/format-date'

/** What a node's children are loaded from; also the node's query key part. */
export type TreeParent =
  | { kind: 'root' }
  | { kind: 'hub'; hubId: string }
  | { kind: 'project'; hubId: string; projectId: string }
  | { kind: 'folder'; hubId: string; projectId: string; folderId: string }
  | { kind: 'item'; hubId: string; projectId: string; itemId: string }
  | { kind: 'bills'; hubId: string; projectId: string }

type NodeBase = {
  /** Unique in the tree: kind + resource id. */
  id: string
  /** The resource's own id. */
  resourceId: string
  /** The row's title (react-arborist's type-ahead reads `name`). */
  name: string
  href: string
  hubId: string
  /** True while the children load. */
  loading?: boolean
  /** True once the children have loaded (so no children then means an empty node). */
  loaded?: boolean
}

export type HubNode = NodeBase & { kind: 'hub'; children: TreeNode[] }
export type ProjectNode = NodeBase & { kind: 'project'; projectId: string; children: TreeNode[] }
export type FolderNode = NodeBase & { kind: 'folder'; projectId: string; children: TreeNode[] }
export type ItemNode = NodeBase & { kind: 'item'; projectId: string; children: TreeNode[] }
export type VersionNode = NodeBase & {
  kind: 'version'
  projectId: string
  storageId: string
  displayName: string
  fileFolderId: string
  versionNumber: number | undefined
  createTime: string
  lastModifiedUserName: string
  /** Its file is not whole yet (still being copied into the cloud): not one to extract yet. */
  stillArriving: boolean
  /** Versions are leaves. */
  children: null
}
/** Under every project, after its folders: the project's bills. */
export type ProjectBillsNode = NodeBase & {
  kind: 'bills'
  projectId: string
  children: TreeNode[]
}
/** A project bill: a leaf that opens its page. */
export type ProjectBillNode = NodeBase & { kind: 'bill'; projectId: string; children: null }
/** What the cloud lists: what a page selects in the tree (the project's bills open their pages). */
export type CloudNode = HubNode | ProjectNode | FolderNode | ItemNode | VersionNode
export type TreeNode = CloudNode | ProjectBillsNode | ProjectBillNode

/**
 * The line an open, loaded, empty folder shows when drawings can be uploaded into it. A row of the
 * tree, but no resource: it is never selected and never in the tree's data.
 */
export type EmptyFolderHint = {
  kind: 'hint'
  id: string
  name: string
  folder: FolderNode
  children: null
}

/** What a row of the tree shows. */
export type TreeRowData = TreeNode | EmptyFolderHint

export function nodeId(kind: TreeNode['kind'], resourceId: string): string {
  return `${kind}:${resourceId}`
}

/** The parent descriptor a node's children are loaded with (null for versions). */
export function parentOf(node: TreeNode): TreeParent | null {
  switch (node.kind) {
    case 'hub':
      return { kind: 'hub', hubId: node.resourceId }
    case 'project':
      return { kind: 'project', hubId: node.hubId, projectId: node.projectId }
    case 'folder':
      return {
        kind: 'folder',
        hubId: node.hubId,
        projectId: node.projectId,
        folderId: node.resourceId,
      }
    case 'item':
      return { kind: 'item', hubId: node.hubId, projectId: node.projectId, itemId: node.resourceId }
    case 'bills':
      return { kind: 'bills', hubId: node.hubId, projectId: node.projectId }
    case 'version':
    case 'bill':
      return null
  }
}

/** The project's bills node, after the project's top folders. */
export function projectBillsNode(hubId: string, projectId: string): ProjectBillsNode {
  return {
    id: nodeId('bills', projectId),
    resourceId: projectId,
    kind: 'bills',
    name: 'Project bills',
    href: '',
    hubId,
    projectId,
    children: [],
  }
}

/** A project's bills as the bills node's children, in the list's order (oldest first). */
export function projectBillNodes(
  parent: { hubId: string; projectId: string },
  bills: readonly { id: string; name: string }[],
): ProjectBillNode[] {
  return bills.map((bill) => ({
    id: nodeId('bill', bill.id),
    resourceId: bill.id,
    kind: 'bill',
    name: bill.name,
    href: '',
    hubId: parent.hubId,
    projectId: parent.projectId,
    children: null,
  }))
}

/**
 * The folder a version lives in, from its decoded webView link: the `folderUrn=` query value
 * (ACC), else the `{id}` of a `folders/{id}/detail` path part (BIM 360); '' when neither.
 */
export function folderIdFromWebView(href: string | undefined): string {
  if (!href) return ''
  let decoded = href
  try {
    decoded = decodeURIComponent(href)
  } catch {
    // A malformed escape: read the link as it is.
  }
  const query = /[?&]folderUrn=([^&#]+)/.exec(decoded)
  if (query?.[1]) return query[1]
  const path = /folders\/([^/?#]+)\/detail/.exec(decoded)
  return path?.[1] ?? ''
}

export function versionTitle(
  versionNumber: number | undefined,
  createTime: string,
  user: string,
): string {
  return [versionNumber ?? '', formatDateTime(createTime), user].join(' ').trim()
}

/** Turns one answer of the server into child nodes of `parent`. */
export function toChildNodes(parent: TreeParent, resources: readonly CloudResource[]): TreeNode[] {
  const nodes: TreeNode[] = []
  for (const r of resources) {
    const node = toChildNode(parent, r)
    if (node) nodes.push(node)
  }
  return nodes
}

function toChildNode(parent: TreeParent, r: CloudResource): TreeNode | null {
  const a = r.attributes
  const href = r.links?.self?.href ?? ''
  switch (parent.kind) {
    case 'bills':
      return null
    case 'root':
      return base('hub', r, a.name, href, r.id, { children: [] })
    case 'hub':
      return base('project', r, a.name, href, parent.hubId, { projectId: r.id, children: [] })
    case 'project':
    case 'folder':
      if (r.type === 'folders') {
        return base('folder', r, a.name, href, parent.hubId, {
          projectId: parent.projectId,
          children: [],
        })
      }
      if (r.type === 'items') {
        return base('item', r, a.displayName, href, parent.hubId, {
          projectId: parent.projectId,
          children: [],
        })
      }
      return null
    case 'item': {
      const createTime = a.createTime ?? ''
      const user = a.lastModifiedUserName ?? ''
      return base(
        'version',
        r,
        versionTitle(a.versionNumber, createTime, user),
        href,
        parent.hubId,
        {
          projectId: parent.projectId,
          storageId: r.relationships?.storage?.data?.id ?? '',
          displayName: a.displayName ?? a.name ?? '',
          fileFolderId: folderIdFromWebView(r.links?.webView?.href),
          versionNumber: a.versionNumber,
          createTime,
          lastModifiedUserName: user,
          stillArriving: a.extension?.data?.processState === VERSION_NOT_WHOLE,
          children: null,
        },
      )
    }
  }
}

function base<K extends TreeNode['kind'], Rest>(
  kind: K,
  r: CloudResource,
  title: string | undefined,
  href: string,
  hubId: string,
  rest: Rest,
) {
  return {
    id: nodeId(kind, r.id),
    resourceId: r.id,
    kind,
    name: title ?? r.id,
    href,
    hubId,
    ...rest,
  } as Extract<TreeNode, { kind: K }>
}
