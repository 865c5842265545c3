// node:url's fileURLToPath for the bundled harness (helpers.mjs reads it before SNO_VECTORS_DIR).
export const fileURLToPath = (url) => new URL(url).pathname
