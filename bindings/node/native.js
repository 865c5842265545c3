'use strict'
// Loads the native addon through napi-rs's generated loader (index.js), which tries the local
// build (`sno.<platform>.node`) and then the platform package (`@libsno/libsno-<platform>`, an
// optional dependency of the published package). When neither loads, the error says which
// platform package this machine needs, instead of the loader's generic message.
//
// Windows x64: the published addon is built with MinGW (win32-x64-gnu). napi-rs's index.js takes
// `-gnu` only under a MinGW-built Node and `-msvc` under the official one, yet the gnu addon
// loads in both (Node-API is a C ABI, and the addon looks its functions up in the host process
// when it loads): it is tried first, the local build and then the platform package.
const pkg = require('./package.json')

function platformName() {
  const { platform, arch } = process
  if (platform === 'win32' && arch === 'x64') return 'win32-x64-gnu'
  if (platform !== 'linux') return `${platform}-${arch}`
  // glibc reports its version in the process report; musl does not.
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null
  const glibc = report?.header?.glibcVersionRuntime
  return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
}

function missingAddon(cause, earlier = []) {
  const platform = platformName()
  const wanted = `${pkg.napi.packageName}-${platform}`
  // napi-rs names a target `<os>-<arch>-<abi>`: x86_64-unknown-linux-gnu is linux-x64-gnu.
  const arches = { x86_64: 'x64', aarch64: 'arm64' }
  const oses = { windows: 'win32' }
  const built = pkg.napi.targets.map((t) => {
    const [arch, , os, abi] = t.split('-')
    return [oses[os] ?? os, arches[arch] ?? arch, abi].filter(Boolean).join('-')
  })
  const known = built.includes(platform)
  let installed = false
  try {
    require.resolve(`${wanted}/package.json`)
    installed = true
  } catch {}
  // The loader's first error that is not "module not found": why an installed addon did not load
  // (a glibc too old, another architecture, a damaged file).
  // (On win32 x64, `earlier` holds the errors of the gnu addon's own tries.)
  const reasons = [...earlier]
  for (let e = cause; e; e = e.cause) reasons.push(e)
  // (napi-rs's loader chains its errors through `cause`, without their codes.)
  const loadError = reasons.find((e) => e !== cause && e.message && !/^Cannot find module/.test(e.message))
  const error = new Error(
    installed || (loadError && known)
      ? `libsno: the native addon for ${platform} is installed but did not load: ` +
          `${loadError ? loadError.message : cause.message}`
      : known
        ? `libsno: the native addon for ${platform} is not installed: it is the package ${wanted}, an optional ` +
          `dependency of libsno ${pkg.version}. Reinstall libsno with optional dependencies ` +
          `(not --omit=optional / --no-optional), or add ${wanted}@${pkg.version} yourself.`
        : `libsno: no native addon is published for ${platform} (published: ${built.join(', ')}); ` +
          'build it from source: see the README of libsno.',
  )
  error.code = 'ERR_SNO_NATIVE_MISSING'
  error.cause = cause
  return error
}

let native
const winErrors = []
if (process.platform === 'win32' && process.arch === 'x64') {
  for (const id of [`./${pkg.napi.binaryName}.win32-x64-gnu.node`, `${pkg.napi.packageName}-win32-x64-gnu`]) {
    try {
      native = require(id)
      break
    } catch (e) {
      winErrors.push(e)
    }
  }
}
if (!native) {
  try {
    native = require('./index.js')
  } catch (e) {
    throw missingAddon(e, winErrors)
  }
}

module.exports = native
