'use strict'
// node:worker_threads in a browser (package.json `browser` field), for sno.js: it registers the
// release of the process-wide lease on the main thread's `exit` event. A page has no process,
// no `exit` event and no lease to release (leases need PostgreSQL or Redis): nothing to register.
module.exports = { isMainThread: false }
