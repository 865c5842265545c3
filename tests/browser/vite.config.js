// Two pages: index.html (the checks) and bench.html (newString against ulid and uuid v7).
import { defineConfig } from 'vite'

export default defineConfig({
  build: {
    rollupOptions: { input: { index: 'index.html', bench: 'bench.html' } },
  },
})
