// node:path's join and dirname for the bundled harness: '/'-separated, '..' applied.
export function join(...parts) {
  const out = []
  for (const part of parts.join('/').split('/')) {
    if (part === '..') out.pop()
    else if (part !== '' && part !== '.') out.push(part)
  }
  return `/${out.join('/')}`
}

export const dirname = (path) => path.slice(0, path.lastIndexOf('/')) || '/'
