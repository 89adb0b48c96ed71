import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { SAMPLE_DRAWINGS } from '../../server/config.ts'
import type { FakeApsState } from './state.ts'

export interface SeedIds {
  hubId: string
  projectId: string
  projectFilesId: string
  drawingsId: string
  plansId: string
  readOnlyId: string
  exampleItemId: string
  personalHubId: string
  personalProjectId: string
  personalFolderId: string
}

/**
 * An ACC account with one project (Project Files / Drawings holding real .dwg files, a
 * read-only Plans folder, a hidden folder and item) and a personal (`a.`) hub with one drawing.
 */
export function seedDefault(state: FakeApsState, fixturesDir = SAMPLE_DRAWINGS): SeedIds {
  const dwg = (name: string) => new Uint8Array(readFileSync(resolve(fixturesDir, name)))
  const hub = state.addHub('ACC Demo Account', 'bim360')
  const project = state.addProject(hub, 'Tower A')
  const projectFiles = state.addFolder(project.rootFolderId, 'Project Files')
  const plans = state.addFolder(project.rootFolderId, 'Plans', { canCreate: false })
  state.addFolder(project.rootFolderId, 'Recycled', { hidden: true })
  const drawings = state.addFolder(projectFiles.id, 'Drawings')
  const readOnly = state.addFolder(projectFiles.id, 'Read only', { canCreate: false })
  const example = state.addItem(drawings.id, 'example.dwg', [
    dwg('example_2013.dwg'),
    dwg('example_2018.dwg'),
  ])
  state.addItem(drawings.id, 'sample.dwg', [dwg('sample_2018.dwg')])
  state.addItem(drawings.id, 'hatches.dwg', [dwg('2000_TS1.dwg')])
  state.addItem(drawings.id, 'notes.pdf', [new TextEncoder().encode('%PDF-1.4 not really a pdf\n')])
  state.addItem(drawings.id, 'deleted.dwg', [dwg('sample_2000.dwg')], { hidden: true })
  state.addItem(readOnly.id, 'locked.dwg', [dwg('sample_2000.dwg')])
  state.addItem(plans.id, 'plan.dwg', [dwg('example_2010.dwg')])
  state.addProject(hub, 'Clinic B')

  const personalHub = state.addHub("Ada's Personal Hub", 'personal')
  const personalProject = state.addProject(personalHub, 'My Designs')
  const personalFolder = state.addFolder(personalProject.rootFolderId, 'My Folder')
  state.addItem(personalFolder.id, 'sketch.dwg', [dwg('sample_2000.dwg')])

  return {
    hubId: hub.id,
    projectId: project.id,
    projectFilesId: projectFiles.id,
    drawingsId: drawings.id,
    plansId: plans.id,
    readOnlyId: readOnly.id,
    exampleItemId: example.id,
    personalHubId: personalHub.id,
    personalProjectId: personalProject.id,
    personalFolderId: personalFolder.id,
  }
}
