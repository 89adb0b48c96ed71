// Stands in for use-sync-external-store/shim in the build (vite.config.ts resolve.alias): the shim
// brings the hook to Reacts older than 18; React 19 has it built in.
export { useSyncExternalStore } from 'react'
