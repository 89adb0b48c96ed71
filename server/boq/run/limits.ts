/** The largest drawing read when nothing else is said: BOQ_MAX_FILE_MB's default. */
export const DEFAULT_MAX_FILE_MB = 200
