// Packs the npm packages of a release in napi-rs's per-platform layout (called by
// scripts/release): one package per platform holding its addon (`@libsno/libsno-linux-x64-gnu`,
// …, with `os`, `cpu` and `libc` so npm installs only the matching one), and the main package
// `libsno` with `optionalDependencies` on all of them and no addon of its own (its `napi` field
// stays: native.js names the missing platform package from it). The main package carries the
// light web build in web/ (docs/wasm.md): browsers, edge runtimes, Deno and Bun load it through
// its exports' conditions, and Node.js falls back to it where no addon loads.
//
// usage: node scripts/release-npm.mjs --version V --addons DIR --stage DIR --out DIR --platforms LIST [--web DIR]
//   --platforms  the comma-separated platform packages to pack (keys of PLATFORMS below; may be
//                empty); the main package names every platform of PLATFORMS as an optional
//                dependency either way
//   --web        the web build to put in the main package's web/: bindings/web/js after
//                scripts/build-web (its JavaScript and modules); without it the main package has
//                no web/ (its browser and edge conditions then point at nothing: a release
//                passes it)
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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
    web: { type: 'string' },
  },
})
for (const name of ['version', 'addons', 'stage', 'out']) {
  if (!args[name]) throw new Error(`release-npm: --${name} is required`)
}
if (args.platforms === undefined) throw new Error('release-npm: --platforms is required')

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
// npm's os / cpu / libc filters of each package, which holds its one addon.
const PLATFORMS = {
  'linux-x64-gnu': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl' },
  'linux-arm64-gnu': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'linux-arm64-musl': { os: 'linux', cpu: 'arm64', libc: 'musl' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'win32-x64-gnu': { os: 'win32', cpu: 'x64' },
}
const packed = args.platforms.split(',').filter((p) => p !== '')
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
  const { os, cpu, libc } = PLATFORMS[platform]
  const addon = `${main.napi.binaryName}.${platform}.node`
  const shipped = [addon]
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
        main: addon,
        files: [...shipped, ...LICENSES],
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

// The light web build (docs/wasm.md) as the main package's web/: four copies of the build's
// JavaScript (bindings/web/js), one per way of getting its WebAssembly modules, each with the
// loaders of that way (bindings/web/js/load/) and the entry (wasm/libsno.mjs, generated by
// tests/surfaces) with native-only.js beside it; the modules once, in web/:
//   web/         fetched next to the loader (new URL(…, import.meta.url)): browsers and bundlers
//   web/fs/      read from disk, synchronously (node:fs): Node's fallback, Bun
//   web/module/  imported as modules (`*.wasm?module`): workerd, Vercel's Edge
//   web/source/  imported by source phase imports (`import source`): Deno, without a permission
function layWeb(src, dest) {
  const load = join(src, 'load')
  const files = (dir, ext) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => e.name)
  const modules = files(src, '.wasm')
  if (modules.length === 0) throw new Error(`release-npm: no .wasm in ${src} (run scripts/build-web)`)
  // The loaders every tree must have: the default tree's, but for its fetch helper.
  const loaders = files(load, '.js').filter((f) => f !== 'compile.js')
  const trees = [
    ['', load, files(load, '.js')],
    ['fs', join(load, 'fs'), null],
    ['module', join(load, 'module'), null],
    ['source', join(load, 'source'), null],
  ]
  rmSync(dest, { recursive: true, force: true })
  for (const [tree, from, own] of trees) {
    const dir = join(dest, tree)
    mkdirSync(join(dir, 'load'), { recursive: true })
    for (const f of files(src, '.js')) cpSync(join(src, f), join(dir, f))
    for (const f of own ?? files(from, '.js')) cpSync(join(from, f), join(dir, 'load', f))
    const missing = loaders.filter((f) => !existsSync(join(dir, 'load', f)))
    if (missing.length > 0) throw new Error(`release-npm: ${from} has no ${missing.join(', ')} (the modules' loaders of web/${tree})`)
    for (const f of ['libsno.mjs', 'native-only.js']) cpSync(join(nodeDir, 'wasm', f), join(dir, f))
  }
  for (const f of modules) cpSync(join(src, f), join(dest, f))
  // The build's JavaScript is ES modules (the main package's .js files are CommonJS), free of side
  // effects but for instantiating the modules it exports the API of.
  writeFileSync(join(dest, 'package.json'), JSON.stringify({ type: 'module', sideEffects: false }, null, 2) + '\n')
  console.log(`  web/: ${[...files(src, '.js'), ...modules].join(' ')}; web/fs/, web/module/, web/source/: the JavaScript with their loaders`)
}

// The main package: the JavaScript, the types and the loader, no addon; every platform
// package as an optional dependency (npm installs the one whose os/cpu/libc match); the web
// build in web/.
const dir = join(args.stage, 'libsno')
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const files = main.files.filter((f) => !f.endsWith('.node') && (args.web || f !== 'web/'))
for (const f of files) if (f !== 'web/') cpSync(join(nodeDir, f), join(dir, f), { recursive: true })
if (args.web) layWeb(args.web, join(dir, 'web'))
else console.log('  no --web: the main package has no web/ (no browser, edge, Deno or Bun build; no Node fallback)')
copyLicenses(dir)
const released = { ...main, files: [...files, ...LICENSES] }
delete released.devDependencies
delete released.scripts
delete released.overrides
released.optionalDependencies = Object.fromEntries(Object.keys(PLATFORMS).map((p) => [`${scope}-${p}`, args.version]))
writeFileSync(join(dir, 'package.json'), JSON.stringify(released, null, 2) + '\n')
pack(dir)
