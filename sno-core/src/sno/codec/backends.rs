//! The codec's kernels by name, so that tests, fuzzers and benchmarks can run every one the CPU
//! supports against the scalar reference. Re-exported as the hidden `sno_core::__backends`: not
//! part of the stable API (the public entry points always pick the best kernel).

use super::scalar;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
use super::x86;
use crate::error::Error;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
use crate::platform::{has_avx2, has_avx512vbmi, has_ssse3};
use crate::sno::id::{BINARY_LEN, ENCODED_LEN, Id};

/// One implementation of the codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Portable Rust, one 5-bit group at a time; the reference.
    Scalar,
    /// SSE2 (every x86_64 CPU): one ID per step, inlined without detection; single-ID encode,
    /// and single-ID decode on CPUs other than Intel's.
    Sse2,
    /// SSSE3: one ID per step (PSHUFB); single-ID decode on Intel CPUs, the last IDs of an AVX2
    /// batch, and batches on CPUs without AVX2.
    Ssse3,
    /// AVX2: two IDs per step (batches).
    Avx2,
    /// AVX-512 F + BW + VBMI: four IDs per step (batches).
    Avx512Vbmi,
}

impl Backend {
    /// Every backend, slowest first.
    pub const ALL: [Backend; 5] = [
        Backend::Scalar,
        Backend::Sse2,
        Backend::Ssse3,
        Backend::Avx2,
        Backend::Avx512Vbmi,
    ];

    /// A short lowercase name (`scalar`, `ssse3`, `avx2`, `avx512vbmi`).
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Sse2 => "sse2",
            Backend::Ssse3 => "ssse3",
            Backend::Avx2 => "avx2",
            Backend::Avx512Vbmi => "avx512vbmi",
        }
    }

    /// Whether this build has the kernel and this CPU can run it.
    #[inline]
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Sse2 => true,
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Ssse3 => has_ssse3(),
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Avx2 => has_avx2(),
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            Backend::Avx512Vbmi => has_avx512vbmi(),
            #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
            _ => false,
        }
    }

    /// The backend single-ID encode uses here: SSE2 inlines into the caller, which beats
    /// calling a detected kernel for this little work.
    pub fn single_encode() -> Backend {
        if Backend::Sse2.is_supported() {
            Backend::Sse2
        } else {
            Backend::Scalar
        }
    }

    /// The backend single-ID decode uses here: SSSE3 on Intel CPUs that have it (its shorter
    /// join saves more than the call costs there) and in builds that enable SSSE3 (then it
    /// inlines too), else as [`Backend::single_encode`]: the inlined SSE2 kernel, faster than the
    /// SSSE3 call on AMD.
    pub fn single_decode() -> Backend {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if crate::platform::single_decode_calls_ssse3() {
            return Backend::Ssse3;
        }
        Backend::single_encode()
    }

    /// The backend the batch functions use here.
    #[inline]
    pub fn batch() -> Backend {
        if Backend::Avx512Vbmi.is_supported() {
            Backend::Avx512Vbmi
        } else if Backend::Avx2.is_supported() {
            Backend::Avx2
        } else if Backend::Ssse3.is_supported() {
            Backend::Ssse3
        } else if Backend::Sse2.is_supported() {
            Backend::Sse2
        } else {
            Backend::Scalar
        }
    }
}

/// Encodes one ID with `backend` (the batch-only kernels run a batch of one); `None` if
/// unsupported.
#[inline(always)]
pub fn encode(backend: Backend, id: &Id) -> Option<[u8; ENCODED_LEN]> {
    match backend {
        Backend::Scalar => Some(scalar::encode(id.as_bytes())),
        // SAFETY: SSE2 is part of the x86_64 baseline.
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        Backend::Sse2 => Some(unsafe { x86::sse2::encode(id.as_bytes()) }),
        // SAFETY: SSSE3 was just checked.
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        Backend::Ssse3 if has_ssse3() => Some(unsafe { x86::ssse3::encode(id.as_bytes()) }),
        _ => {
            let mut text = [0u8; ENCODED_LEN];
            try_encode_many(backend, core::slice::from_ref(id), &mut text)?.ok()?;
            Some(text)
        }
    }
}

/// Strictly decodes one ID with `backend` (the batch-only kernels run a batch of one); `None`
/// if unsupported.
#[inline(always)]
pub fn decode(backend: Backend, text: &[u8]) -> Option<Result<Id, Error>> {
    backend
        .is_supported()
        .then(|| decode_supported(backend, text))
}

/// [`decode`] for a backend this CPU supports, returning what [`crate::Id::decode`] returns:
/// the benchmarks time the kernels through this, as unwrapping the `Option` first added a copy
/// of the result to every call.
///
/// # Panics
/// If this CPU does not support `backend`.
#[inline(always)]
pub fn decode_supported(backend: Backend, text: &[u8]) -> Result<Id, Error> {
    assert!(backend.is_supported(), "{backend:?} is not supported here");
    match backend {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        Backend::Sse2 => super::decode_with(text, |single| unsafe { x86::sse2::decode(single) }),
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        // SAFETY: the caller checked that the backend is supported.
        Backend::Ssse3 => super::decode_with(text, |single| unsafe { x86::ssse3::decode(single) }),
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        Backend::Avx2 | Backend::Avx512Vbmi => {
            let mut id = [Id::ZERO];
            decode_many(backend, text, &mut id).map(|()| id[0])
        }
        _ => super::decode_with(text, scalar::decode),
    }
}

/// [`crate::Id::encode_many`] with `backend`; `None` if unsupported.
pub fn try_encode_many(backend: Backend, ids: &[Id], out: &mut [u8]) -> Option<Result<(), Error>> {
    backend
        .is_supported()
        .then(|| encode_many(backend, ids, out))
}

/// [`crate::Id::decode_many`] with `backend`; `None` if unsupported.
pub fn try_decode_many(backend: Backend, text: &[u8], out: &mut [Id]) -> Option<Result<(), Error>> {
    backend
        .is_supported()
        .then(|| decode_many(backend, text, out))
}

/// Batch encode with a backend known to be supported.
pub(crate) fn encode_many(backend: Backend, ids: &[Id], out: &mut [u8]) -> Result<(), Error> {
    check_len(out.len(), ENCODED_LEN, ids.len())?;
    let src = id_bytes(ids);
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    match backend {
        Backend::Scalar => scalar::encode_many(src, out),
        // SAFETY: SSE2 is part of the x86_64 baseline.
        Backend::Sse2 => unsafe { x86::sse2::encode_many(src, out) },
        // SAFETY: callers pass a supported backend: the CPU has SSSE3.
        Backend::Ssse3 => unsafe { x86::ssse3::encode_many(src, out) },
        // SAFETY: callers pass a supported backend: the CPU has AVX2.
        Backend::Avx2 => unsafe { x86::avx2::encode_many(src, out) },
        // SAFETY: callers pass a supported backend: the CPU has AVX-512 F/BW/VBMI.
        Backend::Avx512Vbmi => unsafe { x86::avx512vbmi::encode_many(src, out) },
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        debug_assert_eq!(backend, Backend::Scalar);
        scalar::encode_many(src, out);
    }
    Ok(())
}

/// Batch decode with a backend known to be supported.
pub(crate) fn decode_many(backend: Backend, text: &[u8], out: &mut [Id]) -> Result<(), Error> {
    check_len(text.len(), ENCODED_LEN, out.len())?;
    let dst = id_bytes_mut(out);
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    match backend {
        Backend::Scalar => scalar::decode_many(text, dst, 0),
        // SAFETY: SSE2 is part of the x86_64 baseline.
        Backend::Sse2 => unsafe { x86::sse2::decode_many(text, dst) },
        // SAFETY: callers pass a supported backend: the CPU has SSSE3.
        Backend::Ssse3 => unsafe { x86::ssse3::decode_many(text, dst) },
        // SAFETY: callers pass a supported backend: the CPU has AVX2.
        Backend::Avx2 => unsafe { x86::avx2::decode_many(text, dst) },
        // SAFETY: callers pass a supported backend: the CPU has AVX-512 F/BW/VBMI.
        Backend::Avx512Vbmi => unsafe { x86::avx512vbmi::decode_many(text, dst) },
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    {
        debug_assert_eq!(backend, Backend::Scalar);
        scalar::decode_many(text, dst, 0)
    }
}

/// Checks that `actual == per_item · items`, as an [`Error::InvalidLength`].
fn check_len(actual: usize, per_item: usize, items: usize) -> Result<(), Error> {
    match per_item.checked_mul(items) {
        Some(expected) if expected == actual => Ok(()),
        expected => Err(Error::InvalidLength {
            expected: expected.unwrap_or(usize::MAX),
            actual,
        }),
    }
}

/// The IDs as their 10-byte representations laid end to end.
fn id_bytes(ids: &[Id]) -> &[u8] {
    // SAFETY: `Id` is `#[repr(transparent)]` over `[u8; 10]`, so `ids` is `10 · len` initialised
    // bytes with alignment 1, borrowed for the same lifetime.
    unsafe { core::slice::from_raw_parts(ids.as_ptr().cast::<u8>(), ids.len() * BINARY_LEN) }
}

/// The IDs as their 10-byte representations laid end to end, writable.
fn id_bytes_mut(ids: &mut [Id]) -> &mut [u8] {
    // SAFETY: as in `id_bytes`, and every byte pattern is a valid `Id`, so any write keeps the
    // slice valid; the mutable borrow is carried over.
    unsafe {
        core::slice::from_raw_parts_mut(ids.as_mut_ptr().cast::<u8>(), ids.len() * BINARY_LEN)
    }
}
