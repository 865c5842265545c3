// Packs the npm packages of a release in napi-rs's per-platform layout (called by
// scripts/release): one package per platform holding its addon (`@libsno/libsno-linux-x64-gnu`,
// …, with `os`, `cpu` and `libc` so npm installs only the matching one), and the main package
// `libsno` with `optionalDependencies` on all of them and no addon of its own (its `napi` field
// stays: native.js names the missing platform package from it).
//
// usage: node scripts/release-npm.mjs --version V --addons DIR --stage DIR --out DIR --platforms LIST
//   --platforms  the comma-separated platform packages to pack (keys of PLATFORMS below); the main
//                package names every platform of PLATFORMS as an optional dependency either way
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    version: { type: 'string' },
    addons: { type: 'string' },
    stage: { type: 'string' },
    out: { type: 'string' },
    platforms: { type: 'string' },
  },
})
for (const name of ['version', 'addons', 'stage', 'out', 'platforms']) {
  if (!args[name]) throw new Error(`release-npm: --${name} is required`)
}

const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const nodeDir = join(repoDir, 'bindings', 'node')
const LICENSES = ['LICENSE-MIT', 'LICENSE-APACHE']
const copyLicenses = (dir) => LICENSES.forEach((f) => cpSync(join(repoDir, f), join(dir, f)))
const main = JSON.parse(readFileSync(join(nodeDir, 'package.json'), 'utf8'))
if (main.version !== args.version) {
  throw new Error(`release-npm: bindings/node/package.json is ${main.version}, the workspace ${args.version}`)
}
const scope = main.napi.packageName // "@libsno/libsno": the platform packages' name stem

// napi-rs platform names, as the loader (native.js over the generated index.js) requires them:
// npm's os / cpu / libc filters of each package, and its files (default: the one addon).
const PLATFORMS = {
  'linux-x64-gnu': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl' },
  'linux-arm64-gnu': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'linux-arm64-musl': { os: 'linux', cpu: 'arm64', libc: 'musl' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'win32-x64-gnu': { os: 'win32', cpu: 'x64' },
  // WebAssembly (scripts/release.d/wasm.sh, docs/wasm.md): the fallback where no addon matches
  // and the browser build. No os/cpu/libc: npm installs it on every machine, so a plain
  // `npm install libsno` gives a bundler the browser build. Its runtime (emnapi, pinned to the
  // release linked into the module) from bindings/node/wasm/package.json.
  'wasm32-wasi': {
    files: ['sno.wasm32-wasi.wasm', 'sno.wasi.cjs', 'sno.wasi-browser.js'],
    main: 'sno.wasi.cjs',
    dependencies: JSON.parse(readFileSync(join(nodeDir, 'wasm', 'package.json'), 'utf8')).dependencies,
  },
}
const packed = args.platforms.split(',')
for (const p of packed) {
  if (!PLATFORMS[p]) throw new Error(`release-npm: unknown platform ${p} (${Object.keys(PLATFORMS).join(', ')})`)
}

function pack(dir) {
  const file = execFileSync('npm', ['pack', '--silent', '--pack-destination', args.out], { cwd: dir, encoding: 'utf8' })
  console.log(`  ${file.trim()}`)
}

const common = {
  version: args.version,
  license: main.license,
  homepage: main.homepage,
  bugs: main.bugs,
  repository: main.repository,
  engines: main.engines,
}

for (const platform of packed) {
  const { os, cpu, libc, files: extra = [], main: entry, dependencies } = PLATFORMS[platform]
  const addon = `${main.napi.binaryName}.${platform}.node`
  const shipped = extra.length > 0 ? extra : [addon]
  const dir = join(args.stage, platform)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const f of shipped) {
    const src = join(args.addons, f)
    if (!existsSync(src)) throw new Error(`release-npm: no ${src} for ${platform}`)
    cpSync(src, join(dir, f), { recursive: true })
  }
  copyLicenses(dir)
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: `${scope}-${platform}`,
        description: `The ${platform} addon of libsno (installed by the libsno package)`,
        ...common,
        ...(os ? { os: [os] } : {}),
        ...(cpu ? { cpu: [cpu] } : {}),
        ...(libc ? { libc: [libc] } : {}),
        main: entry ?? addon,
        files: [...shipped, ...LICENSES],
        ...(dependencies ? { dependencies } : {}),
        // A scoped package is private on its first publish unless it says otherwise.
        publishConfig: { access: 'public' },
      },
      null,
      2,
    ) + '\n',
  )
  writeFileSync(join(dir, 'README.md'), `# ${scope}-${platform}\n\nThe ${platform} native addon of [libsno](https://www.npmjs.com/package/libsno); install \`libsno\`, not this package.\n`)
  pack(dir)
}

// The main package: the JavaScript, the types and the loader, no addon; every platform
// package as an optional dependency (npm installs the one whose os/cpu/libc match).
const dir = join(args.stage, 'libsno')
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const files = main.files.filter((f) => !f.endsWith('.node'))
for (const f of files) cpSync(join(nodeDir, f), join(dir, f), { recursive: true })
copyLicenses(dir)
const released = { ...main, files: [...files, ...LICENSES] }
delete released.devDependencies
delete released.scripts
delete released.overrides
released.optionalDependencies = Object.fromEntries(Object.keys(PLATFORMS).map((p) => [`${scope}-${p}`, args.version]))
writeFileSync(join(dir, 'package.json'), JSON.stringify(released, null, 2) + '\n')
pack(dir)
