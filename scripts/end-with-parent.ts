/**
 * `node --import scripts/end-with-parent.ts <script>`: the script ends when the process that
 * started it is gone. That process holds the write end of our stdin pipe (spawnNode in
 * children.ts arranges it); when it dies, however it dies, the kernel closes that end and stdin
 * ends. SIGTERM to ourselves, so a server stops as it does on `kill <pid>`.
 */
import { isMainThread } from 'node:worker_threads'

// `--import` runs in every worker thread too, whose stdin is not the process's and ends at once.
if (isMainThread) {
  process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'))
  process.stdin.resume()
  // Waiting for that end must not keep the script running once it has nothing else to do.
  process.stdin.unref()
}
