'use strict'
// Loads the native addon through napi-rs's generated loader (index.js), which tries the local
// build (`sno.<platform>.node`) and then the platform package (`@libsno/libsno-<platform>`, an
// optional dependency of the published package). When neither loads, the error says which
// platform package this machine needs, instead of the loader's generic message.
const pkg = require('./package.json')

function platformName() {
  const { platform, arch } = process
  if (platform !== 'linux') return `${platform}-${arch}`
  // glibc reports its version in the process report; musl does not.
  const report = typeof process.report?.getReport === 'function' ? process.report.getReport() : null
  const glibc = report?.header?.glibcVersionRuntime
  return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
}

function missingAddon(cause) {
  const platform = platformName()
  const wanted = `${pkg.napi.packageName}-${platform}`
  // napi-rs names a target `<os>-<arch>-<abi>`: x86_64-unknown-linux-gnu is linux-x64-gnu.
  const arches = { x86_64: 'x64', aarch64: 'arm64' }
  const built = pkg.napi.targets.map((t) => {
    const [arch, , os, abi] = t.split('-')
    return `${os}-${arches[arch] ?? arch}-${abi}`
  })
  const known = built.includes(platform)
  let installed = false
  try {
    require.resolve(`${wanted}/package.json`)
    installed = true
  } catch {}
  // The loader's first error that is not "module not found": why an installed addon did not load
  // (a glibc too old, another architecture, a damaged file).
  const reasons = []
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
try {
  native = require('./index.js')
} catch (e) {
  throw missingAddon(e)
}

module.exports = native
