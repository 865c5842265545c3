//! [`AnyId`]: a value of any format, and the single format detection ([`AnyId::detect`]) that
//! the CLI and every binding use. It sits above every format's module: it expands the format
//! table ([`for_each_format!`](crate::for_each_format)) with the types.

use core::fmt;
use core::str::FromStr;

use crate::error::Error;
use crate::format::{Format, FormatSet, Setting};
use crate::model::{
    FieldInput, FieldValue, Fields, FromFields, IdFormat, MAX_FIELDS, MAX_TEXT_LEN, Text,
};

/// `Some(<$ty as ProcessWide>::$call())` for a format the table marks as having a process-wide
/// generator (`process_generator: true`), `None` for the others; with `text`, the value's
/// canonical text written into `$buf` instead (no `AnyId` made).
#[cfg(feature = "std")]
macro_rules! process_wide {
    ($variant:ident, $ty:ty, true, $call:ident) => {
        Some(<$ty as crate::model::ProcessWide>::$call().map(AnyId::$variant))
    };
    ($variant:ident, $ty:ty, true, text, $buf:ident) => {
        Some(
            <$ty as crate::model::ProcessWide>::try_new().map(|id| IdFormat::write_text(&id, $buf)),
        )
    };
    ($variant:ident, $ty:ty, false, $($call:ident),+) => {
        None
    };
}

/// The first four of `items` (a format's extras), each mapped by `f`, as one iterator type for
/// every format (their extras' slices differ in type).
fn first_four<T, U: Copy + Default>(
    items: &[T],
    f: impl Fn(&T) -> U,
) -> core::iter::Take<core::array::IntoIter<U, 4>> {
    let mut out = [U::default(); 4];
    let mut len = 0;
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = f(item);
        len += 1;
    }
    out.into_iter().take(len)
}

macro_rules! define_any {
    ($($variant:ident {
        ty: $ty:ty, name: $name:literal, display: $display:literal, binary_len: $bin:tt,
        max_text_len: $text:tt, generator: $generator:tt, process_generator: $process:tt
        $(, $fact:ident: $value:tt)* $(,)?
    }),* $(,)?) => {
        /// A value of any format. Values order by format (the table's order), then by value:
        /// within one format, as the format's own type orders them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum AnyId {
            $(
                #[doc = concat!("A ", $display, ".")]
                $variant($ty),
            )*
        }

        $(
            impl From<$ty> for AnyId {
                fn from(id: $ty) -> AnyId {
                    AnyId::$variant(id)
                }
            }
        )*

        impl Format {
            /// The formats this one lists as the same bits ([`Extras::same_bits`](crate::model::Extras::same_bits)).
            const fn lists_same_bits(self) -> &'static [Format] {
                match self { $(Format::$variant => <$ty as IdFormat>::EXTRAS.same_bits),* }
            }

            /// The setting that names the format's text part outside its binary form (a
            /// [`Param`](crate::model::Param)), for a format that has one.
            ///
            /// ```
            /// use sno_core::{Format, Setting};
            /// assert_eq!(Format::TypeId.param(), Some(Setting::Prefix));
            /// assert_eq!(Format::Ulid.param(), None);
            /// ```
            pub const fn param(self) -> Option<Setting> {
                match self { $(Format::$variant => match <$ty as IdFormat>::EXTRAS.param {
                    Some(p) => Some(p.facts.setting),
                    None => None,
                }),* }
            }

            /// The facts of the format's [`Param`](crate::model::Param) (its setting, rules,
            /// longest length, the name of its binary form, the format of a new value's
            /// binary form), for a format that has one.
            ///
            /// ```
            /// use sno_core::{Format, Setting};
            /// let facts = Format::TypeId.param_facts().expect("a prefix");
            /// assert_eq!((facts.setting, facts.max_len, facts.binary), (Setting::Prefix, 63, "uuid"));
            /// assert!(Format::Ksuid.param_facts().is_none());
            /// ```
            pub const fn param_facts(self) -> Option<crate::model::ParamFacts> {
                match self { $(Format::$variant => match <$ty as IdFormat>::EXTRAS.param {
                    Some(p) => Some(p.facts),
                    None => None,
                }),* }
            }

            /// Checks `param` against the rules of the format's [`Param`](crate::model::Param)
            /// (a TypeID prefix's: [`Error::InvalidPrefix`]); `None` for a format without one.
            ///
            /// ```
            /// use sno_core::Format;
            /// assert!(matches!(Format::TypeId.check_param("user"), Some(Ok(()))));
            /// assert!(matches!(Format::TypeId.check_param("User"), Some(Err(_))));
            /// assert!(Format::Ulid.check_param("user").is_none());
            /// ```
            pub fn check_param(self, param: &str) -> Option<Result<(), Error>> {
                match self { $(Format::$variant => <$ty as IdFormat>::EXTRAS.param.map(|p| (p.check)(param)),)* }
            }

            /// The names, lengths and documentation of the format's other text forms
            /// ([`Extras::texts`](crate::model::Extras::texts)): what the bindings' generators
            /// write a property of.
            ///
            /// ```
            /// use sno_core::Format;
            /// let (name, len, _doc) = Format::Scru160.text_forms().next().expect("hex");
            /// assert_eq!((name, len), ("hex", 40));
            /// ```
            pub fn text_forms(self) -> impl Iterator<Item = (&'static str, usize, &'static str)> {
                match self { $(Format::$variant => {
                    first_four(<$ty as IdFormat>::EXTRAS.texts, |t| (t.name, t.len, t.doc))
                }),* }
            }

            /// The names and documentation of the numbers the format reads from a value besides
            /// its fields ([`Extras::numbers`](crate::model::Extras::numbers)).
            pub fn numbers(self) -> impl Iterator<Item = (&'static str, &'static str)> {
                match self { $(Format::$variant => {
                    first_four(<$ty as IdFormat>::EXTRAS.numbers, |n| (n.name, n.doc))
                }),* }
            }

            /// What the format's lenient decoder takes beyond the strict one
            /// ([`Extras::lenient`](crate::model::Extras::lenient)), for a format that has one
            /// ([`AnyId::parse_lenient_as`]).
            ///
            /// ```
            /// use sno_core::Format;
            /// assert!(Format::Uuid7.lenient().is_some() && Format::Ulid.lenient().is_none());
            /// ```
            pub const fn lenient(self) -> Option<&'static str> {
                match self { $(Format::$variant => match <$ty as IdFormat>::EXTRAS.lenient {
                    Some(l) => Some(l.doc),
                    None => None,
                }),* }
            }

            /// Whether the format's time is read with a caller's epoch
            /// ([`Extras::epoch`](crate::model::Extras::epoch): `unix_ms_at`), and its default
            /// epoch in Unix milliseconds where it has one.
            ///
            /// ```
            /// use sno_core::Format;
            /// assert_eq!(Format::Nanoflake.epoch_time(), Some(None));
            /// assert_eq!(Format::Ulid.epoch_time(), None);
            /// ```
            pub const fn epoch_time(self) -> Option<Option<i64>> {
                match self { $(Format::$variant => match <$ty as IdFormat>::EXTRAS.epoch {
                    Some(e) => Some(e.default_ms),
                    None => None,
                }),* }
            }
        }

        impl AnyId {
            /// The value of `format` with the text part `param` outside its binary form `binary`
            /// (a TypeID of a prefix and a UUID): the format's [`Param`](crate::model::Param);
            /// `None` for a format without one.
            ///
            /// ```
            /// use sno_core::{AnyId, Format};
            /// let id = AnyId::with_param(Format::TypeId, "user", &[1; 16]).expect("TypeID has one")?;
            /// assert!(id.text().starts_with("user_"));
            /// # Ok::<(), sno_core::Error>(())
            /// ```
            pub fn with_param(format: Format, param: &str, binary: &[u8]) -> Option<Result<AnyId, Error>> {
                match format { $(Format::$variant => {
                    <$ty as IdFormat>::EXTRAS.param.map(|p| (p.with)(param, binary).map(AnyId::$variant))
                }),* }
            }

            /// `format`'s lenient decoder ([`Extras::lenient`](crate::model::Extras::lenient)),
            /// or its strict one for a format without.
            ///
            /// # Errors
            /// The format's decoding error.
            pub fn parse_lenient_as(format: Format, text: &[u8]) -> Result<AnyId, Error> {
                // The strict decoders through `parse_as`: one copy of their dispatch.
                match format { $(Format::$variant => match <$ty as IdFormat>::EXTRAS.lenient {
                    Some(lenient) => (lenient.decode)(text).map(AnyId::$variant),
                    None => AnyId::parse_as(format, text),
                }),* }
            }

            /// Writes the value's text form `name` ([`Extras::texts`](crate::model::Extras::texts))
            /// into `buf` and returns its length; `None` for a name the format has no form of.
            pub fn write_text_form(&self, name: &str, buf: &mut [u8; MAX_TEXT_LEN]) -> Option<usize> {
                match self { $(AnyId::$variant(id) => {
                    <$ty as IdFormat>::EXTRAS.text(name).map(|t| (t.write)(id, buf))
                }),* }
            }

            /// The value's number `name` ([`Extras::numbers`](crate::model::Extras::numbers)).
            pub fn number(&self, name: &str) -> Option<u64> {
                match self { $(AnyId::$variant(id) => {
                    <$ty as IdFormat>::EXTRAS.number(name).map(|n| (n.read)(id))
                }),* }
            }

            /// Milliseconds since 1970 of a value made with the epoch `epoch_ms`, for a format
            /// whose epoch is not fixed ([`Extras::epoch`](crate::model::Extras::epoch)).
            pub fn unix_ms_at(&self, epoch_ms: i64) -> Option<i64> {
                match self { $(AnyId::$variant(id) => {
                    <$ty as IdFormat>::EXTRAS.epoch.map(|e| (e.unix_ms_at)(id, epoch_ms))
                }),* }
            }

            /// The part of the value outside its binary form ([`IdFormat::param`]).
            pub fn param(&self) -> &str {
                match self { $(AnyId::$variant(id) => IdFormat::param(id)),* }
            }

            /// The fields a value of `format` is made from ([`FromFields::INPUTS`]), in order.
            ///
            /// ```
            /// use sno_core::{AnyId, Format};
            /// let names: Vec<_> = AnyId::inputs(Format::Uuid7).iter().map(|f| f.name).collect();
            /// assert_eq!(names, ["unix_ms", "rand_a", "rand_b"]);
            /// ```
            pub fn inputs(format: Format) -> &'static [FieldInput] {
                match format {
                    $(Format::$variant => <$ty as FromFields>::INPUTS,)*
                }
            }

            /// The value of `format` made from its fields by name (the bindings' generic
            /// `from_fields`): `get` is asked for each of [`inputs`](Self::inputs), in order,
            /// and its error (a binding's own: an argument of the wrong type) is returned as
            /// the outer one; the inner result is the format's `from_fields`'s.
            ///
            /// ```
            /// use sno_core::{AnyId, Error, FieldValue, Format};
            ///
            /// let id = AnyId::from_fields(Format::Scru160, |input| {
            ///     Ok::<_, Error>(FieldValue::Uint(if input.name == "counter" { 7 } else { 0 }))
            /// })??;
            /// assert_eq!(id.fields().get("counter").map(|f| f.value), Some(FieldValue::Uint(7)));
            /// let wide = AnyId::from_fields(Format::Scru160, |_| Ok::<_, Error>(FieldValue::Uint(1 << 100)))?;
            /// assert_eq!(wide, Err(Error::ValueOverflow));
            /// # Ok::<(), Error>(())
            /// ```
            ///
            /// # Errors
            /// The outer error is `get`'s; the inner one [`Error::InvalidArgument`] for a value
            /// of another kind than its field's, [`Error::ValueOverflow`] for a number above
            /// its field's width, or the format's own (a time outside its range).
            pub fn from_fields<'v, E>(
                format: Format,
                mut get: impl FnMut(&FieldInput) -> Result<FieldValue<'v>, E>,
            ) -> Result<Result<AnyId, Error>, E> {
                let mut args = [FieldValue::Uint(0); MAX_FIELDS];
                let mut len = 0;
                // The inputs as `compose` reads them, from the fields themselves (the same list
                // as `inputs`, whose per-type constants would be one more copy of the names in
                // a build that makes values from fields: the web build).
                let inputs = format.fields().iter().filter(|spec| spec.input);
                for (slot, spec) in args.iter_mut().zip(inputs) {
                    *slot = get(&FieldInput { name: spec.name, kind: spec.kind })?;
                    len += 1;
                }
                Ok(AnyId::from_inputs(format, crate::bytes::at(&args, ..len)))
            }

            /// Strictly decodes `text` as a value of `format`.
            ///
            /// # Errors
            /// The format's decoding error.
            pub fn parse_as(format: Format, text: &[u8]) -> Result<AnyId, Error> {
                match format { $(Format::$variant => <$ty as IdFormat>::decode(text).map(AnyId::$variant)),* }
            }

            /// Strictly decodes `text` as `format` and writes its canonical text to `buf`,
            /// returning its length: [`parse_as`](Self::parse_as) then
            /// [`write_text`](Self::write_text) without building the `AnyId` (a binding's
            /// `parse`, which keeps only the text).
            ///
            /// ```
            /// use sno_core::{AnyId, Format, model::MAX_TEXT_LEN};
            /// let mut buf = [0u8; MAX_TEXT_LEN];
            /// let len = AnyId::canonical_text_as(Format::Ulid, b"01arz3ndektsv4rrffq69g5fav", &mut buf)?;
            /// assert_eq!(&buf[..len], b"01ARZ3NDEKTSV4RRFFQ69G5FAV");
            /// # Ok::<(), sno_core::Error>(())
            /// ```
            ///
            /// # Errors
            /// The format's decoding error.
            pub fn canonical_text_as(format: Format, text: &[u8], buf: &mut [u8; MAX_TEXT_LEN]) -> Result<usize, Error> {
                match format { $(Format::$variant => <$ty as IdFormat>::decode(text).map(|id| IdFormat::write_text(&id, buf))),* }
            }

            /// Takes the binary form of a value of `format`.
            ///
            /// # Errors
            /// As [`IdFormat::from_slice`].
            pub fn from_slice_as(format: Format, bytes: &[u8]) -> Result<AnyId, Error> {
                match format { $(Format::$variant => <$ty as IdFormat>::from_slice(bytes).map(AnyId::$variant)),* }
            }

            /// The value's format.
            pub const fn format(&self) -> Format {
                match self { $(AnyId::$variant(_) => Format::$variant),* }
            }

            /// The binary form, borrowed.
            pub fn as_slice(&self) -> &[u8] {
                match self { $(AnyId::$variant(id) => IdFormat::as_slice(id)),* }
            }

            /// The canonical text.
            pub fn text(&self) -> Text {
                match self { $(AnyId::$variant(id) => IdFormat::text(id)),* }
            }

            /// As [`IdFormat::unix_ms`].
            pub fn unix_ms(&self) -> Option<i64> {
                match self { $(AnyId::$variant(id) => IdFormat::unix_ms(id)),* }
            }

            /// As [`IdFormat::unix_ns`].
            pub fn unix_ns(&self) -> Option<i64> {
                match self { $(AnyId::$variant(id) => IdFormat::unix_ns(id)),* }
            }

            /// The old name of [`unix_ns`](Self::unix_ns).
            #[deprecated(since = "0.2.0", note = "renamed `unix_ns`")]
            pub fn unix_nanos(&self) -> Option<i64> {
                self.unix_ns()
            }

            /// As [`IdFormat::fields`].
            pub fn fields(&self) -> Fields<'_> {
                match self { $(AnyId::$variant(id) => IdFormat::fields(id)),* }
            }

            /// As [`IdFormat::write_text`]: the canonical text into `buf`, its length returned.
            pub fn write_text(&self, buf: &mut [u8; MAX_TEXT_LEN]) -> usize {
                match self { $(AnyId::$variant(id) => IdFormat::write_text(id, buf)),* }
            }

            /// A new value from `format`'s process-wide generator (waiting, bounded, through a
            /// used-up millisecond: `<format>::try_new()`), for a format that has one needing no
            /// argument ([`Format::has_process_generator`]); `None` for the others.
            ///
            /// ```
            /// use sno_core::{AnyId, Format};
            /// let id = AnyId::try_new(Format::Ulid).expect("ULID has one")?;
            /// assert_eq!(id.format(), Format::Ulid);
            /// assert!(AnyId::try_new(Format::Nanoflake).is_none()); // needs an epoch and an id
            /// # Ok::<(), sno_core::Error>(())
            /// ```
            #[cfg(feature = "std")]
            pub fn try_new(format: Format) -> Option<Result<AnyId, Error>> {
                match format { $(Format::$variant => process_wide!($variant, $ty, $process, try_new)),* }
            }

            /// [`try_new`](Self::try_new)'s value as its canonical text, written into `buf`
            /// (its length returned): the bindings' `newString` path, which makes no `AnyId`
            /// (that copy of the largest variant costs more than the ID itself).
            ///
            /// ```
            /// use sno_core::{AnyId, Format};
            /// let mut buf = [0u8; sno_core::model::MAX_TEXT_LEN];
            /// let len = AnyId::try_new_text(Format::Ulid, &mut buf).expect("ULID has one")?;
            /// assert_eq!(len, 26);
            /// # Ok::<(), sno_core::Error>(())
            /// ```
            #[cfg(feature = "std")]
            pub fn try_new_text(format: Format, buf: &mut [u8; MAX_TEXT_LEN]) -> Option<Result<usize, Error>> {
                match format { $(Format::$variant => process_wide!($variant, $ty, $process, text, buf)),* }
            }

            /// [`try_new`](Self::try_new) without waiting (`<format>::try_new_nonblocking()`).
            #[cfg(feature = "std")]
            pub fn try_new_nonblocking(format: Format) -> Option<Result<AnyId, Error>> {
                match format { $(Format::$variant => process_wide!($variant, $ty, $process, try_new_nonblocking)),* }
            }
        }
    };
}

crate::for_each_format!(define_any);

impl AnyId {
    /// The value of `format` made from `args`, one per [`inputs`](Self::inputs) entry, in that
    /// order: as [`FromFields::from_inputs`], for a format known at run time.
    ///
    /// ```
    /// use sno_core::{AnyId, Error, FieldValue, Format};
    /// let args = [FieldValue::Uint(1_469_922_850_259), FieldValue::Uint(0), FieldValue::Uint(7)];
    /// let id = AnyId::from_inputs(Format::Uuid7, &args)?;
    /// assert_eq!(id.text().as_str(), "01563e3a-b5d3-7000-8000-000000000007");
    /// assert_eq!(AnyId::from_inputs(Format::Uuid7, &args[..2]).map(drop).unwrap_err().kind(), sno_core::ErrorKind::InvalidArgument);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`FromFields::from_inputs`].
    pub fn from_inputs(format: Format, args: &[FieldValue<'_>]) -> Result<AnyId, Error> {
        let made = crate::model::compose(format, args)?;
        let binary = crate::bytes::at(&made.binary, ..format.binary_len());
        match made.text {
            Some(text) => AnyId::with_param(format, text, binary)
                .unwrap_or_else(|| AnyId::from_slice_as(format, binary)),
            None => AnyId::from_slice_as(format, binary),
        }
    }
}

impl FromStr for Format {
    type Err = Error;

    /// A format by its [name](Format::name) or [display name](Format::display_name), in any
    /// case; `uuidv7`, `uuid` and `ulid-flake` also work.
    fn from_str(s: &str) -> Result<Format, Error> {
        Format::ALL
            .into_iter()
            .find(|f| {
                s.eq_ignore_ascii_case(f.name())
                    || s.eq_ignore_ascii_case(f.display_name())
                    || (*f == Format::Uuid7 && s.eq_ignore_ascii_case("uuid"))
            })
            .ok_or(Error::UnknownFormat)
    }
}

impl Format {
    /// Whether values of `self` and `other` are the same bits in the same layout (ULID,
    /// UUIDv7, TypeID's UUID), so that one converts to the other ([`AnyId::convert`]): listed
    /// by either ([`Extras::same_bits`](crate::model::Extras::same_bits)).
    ///
    /// ```
    /// use sno_core::Format;
    /// assert!(Format::Uuid7.same_bits(Format::Ulid) && Format::Ulid.same_bits(Format::TypeId));
    /// assert!(!Format::Ulid.same_bits(Format::Scru128) && !Format::Ulid.same_bits(Format::Ulid));
    /// ```
    pub fn same_bits(self, other: Format) -> bool {
        self.lists_same_bits().contains(&other) || other.lists_same_bits().contains(&self)
    }

    /// The formats a value of `self` converts to as it is, with no param to add or drop: those
    /// of the same bits ([`Format::same_bits`]) where neither has a
    /// [`Param`](crate::model::Param). The bindings give a value class a `to_<name>()`
    /// (`to<Class>()` in JavaScript) for each, which is [`AnyId::convert`] with the target's
    /// rules (a ULID converts to a UUIDv7 only if its bits carry version 7).
    ///
    /// ```
    /// use sno_core::Format;
    /// assert!(Format::Ulid.conversions().eq([Format::Uuid7]));
    /// assert!(Format::Uuid7.conversions().eq([Format::Ulid]));
    /// assert_eq!(Format::TypeId.conversions().count(), 0);
    /// ```
    pub fn conversions(self) -> impl Iterator<Item = Format> {
        let plain = |f: Format| f.param_facts().is_none();
        Format::ALL
            .into_iter()
            .filter(move |&to| plain(self) && plain(to) && self.same_bits(to))
    }
}

impl AnyId {
    /// The value of `to` with the same bits ([`Format::same_bits`]), or this value itself for
    /// its own format; a format with a [`Param`](crate::model::Param) takes `param` (the
    /// value's own when it has one and `param` is `None`, else empty). `None` when `to` has
    /// other bits.
    ///
    /// ```
    /// use sno_core::{AnyId, Format};
    /// let ulid = AnyId::parse_as(Format::Ulid, b"01H455VB4PEX5VSKNK084SN02Q")?;
    /// let typeid = ulid.convert(Format::TypeId, Some("user")).expect("the same bits")?;
    /// assert_eq!(typeid.text().as_str(), "user_01h455vb4pex5vsknk084sn02q");
    /// assert_eq!(typeid.convert(Format::Ulid, None).expect("the same bits")?, ulid);
    /// assert!(ulid.convert(Format::Scru128, None).is_none());
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    pub fn convert(&self, to: Format, param: Option<&str>) -> Option<Result<AnyId, Error>> {
        let from = self.format();
        if to != from && !from.same_bits(to) {
            return None;
        }
        let param = param.unwrap_or(if to == from { self.param() } else { "" });
        Some(match AnyId::with_param(to, param, self.as_slice()) {
            Some(made) => made,
            None if to == from => Ok(*self),
            None => AnyId::from_slice_as(to, self.as_slice()),
        })
    }

    /// A new value of a format with a [`Param`](crate::model::Param) (a TypeID): `param`
    /// (checked first) and a binary form from the process-wide generator of the param's
    /// source format; `None` for a format without a param.
    ///
    /// ```
    /// use sno_core::{AnyId, Format};
    /// let id = AnyId::try_new_with_param(Format::TypeId, "user").expect("TypeID has one")?;
    /// assert_eq!(id.param(), "user");
    /// # Ok::<(), sno_core::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn try_new_with_param(format: Format, param: &str) -> Option<Result<AnyId, Error>> {
        let source = format.param_facts()?.source;
        Some(format.check_param(param)?.and_then(|()| {
            let binary = AnyId::try_new(source).ok_or(Error::UnknownFormat)??;
            AnyId::with_param(format, param, binary.as_slice()).ok_or(Error::UnknownFormat)?
        }))
    }

    /// Every format whose strict decoder accepts `text`.
    pub fn candidates(text: &[u8]) -> FormatSet {
        Format::ALL
            .into_iter()
            .filter(|f| AnyId::parse_as(*f, text).is_ok())
            .fold(FormatSet::EMPTY, FormatSet::with)
    }

    /// The one format `text` is written in.
    ///
    /// A text is recognised when exactly one format accepts it **and** that format's text is
    /// recognisable: Nanoflakes (1 to 13 base36 digits, no fixed length) accept almost any
    /// short word, so a text that only a Nanoflake reads is reported as ambiguous too; pass the
    /// format ([`parse_as`](Self::parse_as), `--format nanoflake`) to read it.
    ///
    /// # Errors
    /// * [`Error::AmbiguousFormat`] with the candidates when several formats accept the text
    ///   (a 13-character text can be a Ulid-Flake and a Nanoflake), or only a Nanoflake does;
    /// * [`Error::UnrecognizedFormat`] when none does.
    ///
    /// ```
    /// use sno_core::{AnyId, Error, Format, FormatSet};
    /// assert_eq!(AnyId::detect(b"brpk4q72xwf2m63l")?.format(), Format::Sno);
    /// assert_eq!(
    ///     AnyId::detect(b"hello"),
    ///     Err(Error::AmbiguousFormat { candidates: FormatSet::EMPTY.with(Format::Nanoflake) })
    /// );
    /// assert_eq!(AnyId::detect(b"!"), Err(Error::UnrecognizedFormat { length: 1 }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn detect(text: &[u8]) -> Result<AnyId, Error> {
        let candidates = AnyId::candidates(text);
        let mut formats = candidates.iter();
        match (formats.next(), formats.next()) {
            (None, _) => Err(Error::UnrecognizedFormat { length: text.len() }),
            (Some(Format::Nanoflake), None) | (Some(_), Some(_)) => {
                Err(Error::AmbiguousFormat { candidates })
            }
            (Some(format), None) => AnyId::parse_as(format, text),
        }
    }
}

impl fmt::Display for AnyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.text().as_str())
    }
}
