/**
 * How far an event's time may be from now. Autodesk stamps an event when it happens and delivers
 * it within seconds; a signed body seen on its way could be sent again by anyone, so after this
 * window it is refused. Within it, a replay changes nothing: a version is noted once per watch.
 * Autodesk retries only a delivery that was not answered 2xx, and this route answers before any
 * work (a failure after the answer is caught up by walking the folder instead), so only an outage
 * of BOQ makes it refuse a genuine late retry.
 */
export const EVENT_WINDOW_MS = 10 * 60_000
