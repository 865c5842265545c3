//! The [`Format`] table: every format the crate speaks, by name and size, and [`FormatSet`].
//! It sits below everything else (errors name formats), so it knows formats by name only: the
//! list with the ID types, [`for_each_format!`](crate::for_each_format), sits above the formats'
//! modules (in `any.rs`) and repeats these rows with the type added; `tests/model.rs` checks that
//! the two agree, and the compiler that they list the same variants (`AnyId` matches on
//! `Format`).

use core::fmt;

macro_rules! define_format {
    ($($variant:ident($name:literal, $display:literal, $bin:expr, $text:expr)),* $(,)?) => {
        /// Every format the crate speaks.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Format {
            $(
                #[doc = concat!($display, ".")]
                $variant,
            )*
        }

        impl Format {
            /// Every format, in table order.
            pub const ALL: [Format; [$($name),*].len()] = [$(Format::$variant),*];

            /// The stable lower-case name (`"sno"`, `"ulid"`, `"uuid7"`, …): the CLI's
            /// `--format`, JSON's `"format"`.
            pub const fn name(self) -> &'static str {
                match self { $(Format::$variant => $name),* }
            }

            /// The name in prose (`"ULID"`, `"UUIDv7"`, `"Ulid-Flake"`, …).
            pub const fn display_name(self) -> &'static str {
                match self { $(Format::$variant => $display),* }
            }

            /// The length of the binary form in bytes.
            pub const fn binary_len(self) -> usize {
                match self { $(Format::$variant => $bin),* }
            }

            /// The length of the longest text form.
            pub const fn max_text_len(self) -> usize {
                match self { $(Format::$variant => $text),* }
            }
        }

    };
}

define_format! {
    Sno("sno", "sno", 10, 16),
    Ulid("ulid", "ULID", 16, 26),
    Uuid7("uuid7", "UUIDv7", 16, 45),
    Scru128("scru128", "SCRU128", 16, 25),
    Scru160("scru160", "SCRU160", 20, 40),
    Nanoflake("nanoflake", "Nanoflake", 8, 13),
    UlidFlake("ulidflake", "Ulid-Flake", 8, 13),
    TypeId("typeid", "TypeID", 16, 90),
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.display_name())
    }
}

/// A set of [`Format`]s (the candidates of an ambiguous text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FormatSet(u16);

impl FormatSet {
    /// No format.
    pub const EMPTY: FormatSet = FormatSet(0);

    /// The set with `format` added.
    pub const fn with(self, format: Format) -> FormatSet {
        FormatSet(self.0 | 1 << format as u16)
    }

    /// Whether `format` is in the set.
    pub const fn contains(self, format: Format) -> bool {
        self.0 & (1 << format as u16) != 0
    }

    /// How many formats the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The formats, in [`Format::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Format> {
        Format::ALL.into_iter().filter(move |f| self.contains(*f))
    }
}

impl fmt::Display for FormatSet {
    /// The display names joined by `", "`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, format) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(format.display_name())?;
        }
        Ok(())
    }
}
