//! The macros that give the formats' modules their shared surface: `id_traits!` (text and
//! binary conversions, `Display`, `Debug`, `FromStr`, serde), `i64_id!` (the 64-bit formats'
//! integer view), `u128_id!` (the 128-bit formats'), `default_from_rng!`,
//! `block_millis_state!` (a `MillisState` over a `BlockState`) and `std_generator!` (a format's
//! thread-safe `Generator` and its process-wide `new()`).

/// `encode` (text into a caller buffer), `encode_bytes`, Display (padded), Debug (the type's
/// name and the text), `FromStr`, binary `TryFrom<&[u8]>`, `From<T> for [u8; N]`,
/// `AsRef<[u8]>` and serde for an ID type with an ASCII `write_text(&self, &mut [u8; TEXT])`,
/// `decode(&[u8])` and `from_slice(&[u8])`. The
/// text is written straight into the caller's buffer: a copy of a temporary would reload it
/// across the kernels' stores, which the CPU cannot forward (measured: scripts/bench-notes.md,
/// "ID text written into the caller's buffer"). With `custom_encode` the type writes its own
/// `encode` (variable-length text).
macro_rules! id_traits {
    ($ty:ty, $text:expr, $bin:expr, $what:literal) => {
        impl $ty {
            /// Writes the canonical text into `buf` and returns it (no allocation).
            #[inline]
            pub fn encode<'a>(&self, buf: &'a mut [u8; $text]) -> &'a str {
                self.write_text(buf);
                // SAFETY: `write_text` writes only alphabet symbols (and hyphens), and every
                // alphabet of the crate is ASCII (`Alphabet::new` asserts it at compile time).
                unsafe { core::str::from_utf8_unchecked(buf) }
            }
            #[doc = concat!("The canonical text of the ", $what, ", as ASCII bytes.")]
            #[inline]
            pub fn encode_bytes(&self) -> [u8; $text] {
                let mut buf = [0u8; $text];
                self.write_text(&mut buf);
                buf
            }
        }
        $crate::id_macros::id_traits!($ty, $text, $bin, $what, custom_encode);
    };
    ($ty:ty, $text:expr, $bin:expr, $what:literal, custom_encode) => {
        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let mut buf = [0u8; $text];
                f.pad(self.encode(&mut buf))
            }
        }
        /// The type's name and the canonical text: `Ulid(01ARZ3NDEKTSV4RRFFQ69G5FAV)`.
        impl core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($ty), "({})"), self)
            }
        }
        impl core::str::FromStr for $ty {
            type Err = $crate::Error;
            fn from_str(s: &str) -> Result<Self, $crate::Error> {
                <$ty>::decode(s.as_bytes())
            }
        }
        impl TryFrom<&[u8]> for $ty {
            type Error = $crate::Error;
            /// The binary form; use `decode` for text.
            fn try_from(bytes: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::from_slice(bytes)
            }
        }
        impl From<$ty> for [u8; $bin] {
            fn from(id: $ty) -> Self {
                id.to_bytes()
            }
        }
        impl AsRef<[u8]> for $ty {
            fn as_ref(&self) -> &[u8] {
                self.as_bytes()
            }
        }
        #[cfg(feature = "serde")]
        impl $crate::serde::TextId for $ty {
            const EXPECTING_TEXT: &'static str = concat!("a ", $what, " string");
            const EXPECTING_BYTES: &'static str = concat!("the ", $what, " bytes");
            const BINARY_LEN: usize = $bin;
            fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
                let mut buf = [0u8; $text];
                f(self.encode(&mut buf))
            }
            fn raw(&self) -> &[u8] {
                self.as_bytes()
            }
            fn parse_text(text: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::decode(text)
            }
            fn parse_raw(bytes: &[u8]) -> Result<Self, $crate::Error> {
                <$ty>::from_slice(bytes)
            }
        }
        #[cfg(feature = "serde")]
        $crate::serde::text_serde!($ty);
    };
}
pub(crate) use id_traits;

/// The integer face of a 64-bit ID type stored as `[u8; 8]` big-endian with the sign bit 0
/// (Nanoflakes, Ulid-Flake): `from_i64` / `to_i64`, the bytes, `from_slice`, and the `i64`
/// conversions.
macro_rules! i64_id {
    ($ty:ident) => {
        impl $ty {
            /// From the integer; negative values are [`Error::ValueOverflow`] (the sign bit must
            /// be 0).
            pub const fn from_i64(value: i64) -> Result<$ty, $crate::Error> {
                if value < 0 {
                    return Err($crate::Error::ValueOverflow);
                }
                Ok($ty(value.to_be_bytes()))
            }
            /// The integer (never negative).
            pub const fn to_i64(self) -> i64 {
                i64::from_be_bytes(self.0)
            }
            const fn bits(&self) -> u64 {
                u64::from_be_bytes(self.0)
            }
            /// The 8 bytes (big-endian).
            pub const fn to_bytes(self) -> [u8; 8] {
                self.0
            }
            /// The 8 bytes, borrowed.
            pub const fn as_bytes(&self) -> &[u8; 8] {
                &self.0
            }
            /// The 8-byte big-endian binary form (sign bit 0).
            pub fn from_slice(bytes: &[u8]) -> Result<$ty, $crate::Error> {
                $ty::from_i64(i64::from_be_bytes($crate::bytes::array_from_slice(bytes)?))
            }
        }

        impl TryFrom<i64> for $ty {
            type Error = $crate::Error;
            fn try_from(value: i64) -> Result<$ty, $crate::Error> {
                $ty::from_i64(value)
            }
        }

        impl From<$ty> for i64 {
            fn from(id: $ty) -> i64 {
                id.to_i64()
            }
        }
    };
}
pub(crate) use i64_id;

/// The 128-bit face of an ID type stored as `[u8; 16]` big-endian with 48-bit Unix
/// milliseconds in front (ULID, UUIDv7, SCRU128): the bytes, `to_u128` and `unix_ms`. With
/// `any_bits` (a type every 16 bytes are a value of) also the infallible `from_bytes`,
/// `from_u128` and `From<[u8; 16]>`, and `from_slice`; with `timestamp_ms` the 0.2 name of
/// `unix_ms` (deprecated), which only the formats of 0.2 have.
macro_rules! u128_id {
    ($ty:ident, any_bits $(, $alias:ident)?) => {
        impl $ty {
            /// From the 16 bytes.
            pub const fn from_bytes(bytes: [u8; 16]) -> $ty {
                $ty(bytes)
            }
            /// From the 128-bit number.
            pub const fn from_u128(value: u128) -> $ty {
                $ty(value.to_be_bytes())
            }
            /// The 16-byte binary form.
            pub fn from_slice(bytes: &[u8]) -> Result<$ty, $crate::Error> {
                $crate::bytes::array_from_slice(bytes).map($ty)
            }
        }

        impl From<[u8; 16]> for $ty {
            fn from(bytes: [u8; 16]) -> $ty {
                $ty(bytes)
            }
        }

        $crate::id_macros::u128_id!($ty $(, $alias)?);
    };
    ($ty:ident, timestamp_ms) => {
        impl $ty {
            /// Milliseconds since 1970.
            #[deprecated(since = "0.2.0", note = "renamed `unix_ms`")]
            #[doc(hidden)]
            pub const fn timestamp_ms(&self) -> u64 {
                self.unix_ms()
            }
        }

        $crate::id_macros::u128_id!($ty);
    };
    ($ty:ident) => {
        impl $ty {
            /// The 16 bytes.
            pub const fn to_bytes(self) -> [u8; 16] {
                self.0
            }
            /// The 16 bytes, borrowed.
            pub const fn as_bytes(&self) -> &[u8; 16] {
                &self.0
            }
            /// The 128-bit number.
            pub const fn to_u128(self) -> u128 {
                u128::from_be_bytes(self.0)
            }
            /// Milliseconds since 1970 (48 bits).
            pub const fn unix_ms(&self) -> u64 {
                (self.to_u128() >> 80) as u64
            }
        }
    };
}
pub(crate) use u128_id;

/// `Default` for a generator state `$ty<R>` with a `const fn new(rng: R)`: a fresh state on
/// `R::default()`.
macro_rules! default_from_rng {
    ($ty:ident) => {
        impl<R: rand_core::RngCore + Default> Default for $ty<R> {
            fn default() -> Self {
                $ty::new(R::default())
            }
        }
    };
}
pub(crate) use default_from_rng;

/// [`HasGenerator`](crate::HasGenerator) for a format whose generator takes no settings
/// ([`AnyGenerator`](crate::AnyGenerator)): a fresh `Monotonic` state on the thread's RNG.
macro_rules! settingless_generator {
    ($id:ty) => {
        #[cfg(any(feature = "std", feature = "web"))]
        impl $crate::HasGenerator for $id {
            type State = Monotonic<$crate::rng::ThreadRng>;

            fn state(_: &$crate::GeneratorSettings) -> Result<Self::State, $crate::Error> {
                Ok(Monotonic::default())
            }
        }
    };
}
pub(crate) use settingless_generator;

/// `MillisState` for a block-based state `Monotonic<R>` whose `last: Option<_>` is its whole
/// memory: one ID is a block of one value ([`BlockState::reserve`] then
/// [`BlockState::mint`]), and a reset forgets the last time and value.
macro_rules! block_millis_state {
    ($id:ty) => {
        impl<R: rand_core::RngCore> $crate::monotonic::MillisState for Monotonic<R> {
            type Id = $id;

            fn next_at(&mut self, unix_millis: i64) -> Result<$id, $crate::Error> {
                let block = $crate::monotonic::BlockState::reserve(self, unix_millis, 1)?;
                Ok(<Self as $crate::monotonic::BlockState>::mint(
                    block.unix_ms,
                    block.counter,
                    &mut self.rng,
                ))
            }

            fn reset(&mut self) {
                self.last = None;
            }
        }
    };
}
pub(crate) use block_millis_state;

/// A format module's std items: `Generator` (its `Monotonic` state behind [`Shared`], on the
/// system clock and the per-thread CSPRNG) and `new()` (a process-wide one, unless the module
/// brings its own: `std_generator!(Id, "what", own_new)`). With `per_thread` (the formats with
/// a [`BlockState`]) `new()` makes its IDs from per-thread blocks
/// ([`Shared::try_next_per_thread`]), else it takes the lock per ID.
macro_rules! std_generator {
    (@global $id:ty, $what:literal, $next:ident, $try_next:ident, $order:literal) => {
        $crate::id_macros::std_generator!($id, $what, own_new);

        #[doc = concat!("A new ", $what, " from the process-wide generator (created on first use, \
            reset in a `fork()` child): ", $order, "\n\n# Panics\nIf the system clock reads \
            outside the format's range (see [`try_new`]), or the operating system's randomness \
            source cannot be read.")]
        #[cfg(feature = "std")]
        pub fn new() -> $id {
            $crate::monotonic::or_panic(try_new())
        }

        #[doc = concat!("A new ", $what, " from the process-wide generator, or the error that \
            [`new`] panics with: [`Error::MillisOutOfRange`](crate::Error::MillisOutOfRange) \
            for a system clock outside the format's range, \
            [`Error::RandomnessUnavailable`](crate::Error::RandomnessUnavailable) when the \
            operating system's randomness source cannot be read, \
            [`Error::InvalidEnvironment`](crate::Error::InvalidEnvironment) for an invalid \
            `SNO_CLOCK`.")]
        #[cfg(feature = "std")]
        pub fn try_new() -> Result<$id, $crate::Error> {
            try_global_generator()?.$next()
        }

        #[doc = concat!("The process-wide ", $what, " generator behind [`new`] and [`try_new`] \
            (created on first use, reset in a `fork()` child), on the clock `SNO_CLOCK` names \
            ([`SystemClock::from_env`](crate::SystemClock::from_env)): its `try_next` never \
            blocks.\n\n# Panics\nIf `SNO_CLOCK` holds an invalid value ([`try_new`] returns \
            the error).")]
        #[cfg(feature = "std")]
        pub fn global_generator() -> &'static Generator {
            $crate::monotonic::or_panic(try_global_generator())
        }

        #[doc = concat!("[`try_new`] without waiting: where it would sleep (a used-up \
            millisecond), the error at once, with its retry time.")]
        #[cfg(feature = "std")]
        pub fn try_new_nonblocking() -> Result<$id, $crate::Error> {
            try_global_generator()?.$try_next()
        }

        #[cfg(feature = "std")]
        impl $crate::model::ProcessWide for $id {
            #[inline]
            fn try_new() -> Result<$id, $crate::Error> {
                try_new()
            }
            #[inline]
            fn try_new_nonblocking() -> Result<$id, $crate::Error> {
                try_new_nonblocking()
            }
        }

        #[doc = concat!("[`global_generator`], or the `SNO_CLOCK` error it panics with.")]
        #[cfg(feature = "std")]
        pub fn try_global_generator() -> Result<&'static Generator, $crate::Error> {
            static GLOBAL: std::sync::OnceLock<Result<Generator, $crate::Error>> =
                std::sync::OnceLock::new();
            GLOBAL
                .get_or_init(|| {
                    let clock = $crate::SystemClock::process_wide()?;
                    Ok(Generator::with_state_and_clock(Default::default(), clock))
                })
                .as_ref()
                .map_err(|e| *e)
        }
    };
    ($id:ty, $what:literal) => {
        $crate::id_macros::std_generator!(@global $id, $what, next, try_next,
            "strictly increasing across all threads of the process (one lock per ID).");
    };
    ($id:ty, $what:literal, per_thread) => {
        $crate::id_macros::std_generator!(@global $id, $what, next_per_thread, try_next_per_thread,
            "unique within the process and strictly increasing in each thread; across threads \
            IDs of different milliseconds are in time order, those of one millisecond in any \
            (each thread makes its IDs from a block of up to 64 values reserved with one lock, \
            so threads do not slow each other down; [`Generator::try_next`] keeps strict \
            process-wide order).");
    };
    ($id:ty, $what:literal, own_new) => {
        #[doc = concat!("A thread-safe ", $what, " generator on the system clock and a per-thread CSPRNG.")]
        #[cfg(feature = "std")]
        pub type Generator<C = $crate::SystemClock> =
            $crate::monotonic::Shared<Monotonic<$crate::rng::ThreadRng>, C>;
    };
}
pub(crate) use std_generator;
