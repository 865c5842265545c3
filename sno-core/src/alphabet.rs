//! Alphabets and their decode tables, built at compile time by `const fn`.
//!
//! Every text codec of the library (sno today, the other formats later) describes its alphabet
//! with an [`Alphabet`], so the tables and their validation logic exist once.

/// The value a decode table holds for a byte outside the alphabet.
pub const INVALID: u8 = 0xFF;

/// An alphabet of `N` ASCII symbols (value = index) with its 256-entry decode table.
#[derive(Debug, Clone, Copy)]
pub struct Alphabet<const N: usize> {
    /// The symbols in value order.
    pub symbols: [u8; N],
    /// For every byte, its value, or [`INVALID`].
    pub decode: [u8; 256],
}

impl<const N: usize> Alphabet<N> {
    /// Builds the alphabet and its decode table; `case_insensitive` also maps the other case of
    /// every ASCII letter to the same value.
    ///
    /// Panics at compile time if `N > 255`, a symbol is not ASCII, or a symbol repeats.
    pub const fn new(symbols: &[u8; N], case_insensitive: bool) -> Self {
        assert!(N <= 255, "alphabets hold at most 255 symbols");
        let mut decode = [INVALID; 256];
        let mut i = 0;
        while i < N {
            let c = symbols[i];
            assert!(c.is_ascii(), "alphabet symbols must be ASCII");
            assert!(
                decode[c as usize] == INVALID,
                "alphabet symbols must be unique"
            );
            decode[c as usize] = i as u8;
            if case_insensitive && c.is_ascii_alphabetic() {
                let other = if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
                decode[other as usize] = i as u8;
            }
            i += 1;
        }
        Alphabet {
            symbols: *symbols,
            decode,
        }
    }

    /// The value of byte `c`, or `None` outside the alphabet.
    #[inline]
    pub const fn value(&self, c: u8) -> Option<u8> {
        match self.decode[c as usize] {
            INVALID => None,
            v => Some(v),
        }
    }

    /// The position and value of the first byte of `input` outside the alphabet.
    pub fn first_invalid(&self, input: &[u8]) -> Option<(usize, u8)> {
        input
            .iter()
            .position(|&c| self.decode[c as usize] == INVALID)
            .map(|p| (p, input[p]))
    }
}

/// The sno alphabet: `2`–`9` then `a`–`x`, ascending ASCII so text order equals byte order.
pub const SNO: Alphabet<32> = Alphabet::new(b"23456789abcdefghijklmnopqrstuvwx", false);

/// Crockford's base32 as ULID uses it: no I, L, O, U; upper case out, either case in (the
/// Crockford aliases I/L → 1, O → 0 are **not** accepted, as the ULID spec has no such rule).
pub const CROCKFORD: Alphabet<32> = Alphabet::new(b"0123456789ABCDEFGHJKMNPQRSTVWXYZ", true);

/// RFC 4648 base32hex as SCRU160 uses it: upper case out, either case in. Ascending ASCII, so text
/// order equals byte order.
pub const BASE32HEX: Alphabet<32> = Alphabet::new(b"0123456789ABCDEFGHIJKLMNOPQRSTUV", true);

/// Base36 as SCRU128 and Nanoflakes use it: lower case out, either case in.
pub const BASE36: Alphabet<36> = Alphabet::new(b"0123456789abcdefghijklmnopqrstuvwxyz", true);

/// Base62: `0-9`, `A-Z`, `a-z`, case-sensitive (the case is part of the
/// value). Ascending ASCII, so text order equals byte order.
pub const BASE62: Alphabet<62> = Alphabet::new(
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    false,
);

/// Hexadecimal digits: lower case out, either case in.
pub const HEX: Alphabet<16> = Alphabet::new(b"0123456789abcdef", true);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sno_table_matches_alphabet_and_rejects_everything_else() {
        for c in 0..=255u8 {
            let expected = SNO.symbols.iter().position(|&s| s == c).map(|p| p as u8);
            assert_eq!(SNO.value(c), expected, "byte {c:#04x}");
        }
        assert!(SNO.symbols.windows(2).all(|w| w[0] < w[1]), "ascending");
    }

    #[test]
    fn format_alphabets() {
        for c in [b'I', b'L', b'O', b'U', b'i', b'l', b'o', b'u'] {
            assert_eq!(CROCKFORD.value(c), None);
        }
        assert_eq!(CROCKFORD.value(b'z'), Some(31));
        assert_eq!(BASE36.value(b'Z'), Some(35));
        assert_eq!(HEX.value(b'F'), Some(15));
        assert_eq!(HEX.value(b'g'), None);
        assert_eq!(BASE62.value(b'Z'), Some(35));
        assert_eq!(BASE62.value(b'z'), Some(61));
        assert_eq!(BASE62.value(b'-'), None);
        assert!(BASE62.symbols.windows(2).all(|w| w[0] < w[1]), "ascending");
    }

    #[test]
    fn case_insensitive_tables_map_both_cases() {
        const A: Alphabet<4> = Alphabet::new(b"0aBz", true);
        assert_eq!(A.value(b'A'), Some(1));
        assert_eq!(A.value(b'b'), Some(2));
        assert_eq!(A.value(b'Z'), Some(3));
        assert_eq!(A.value(b'1'), None);
        assert_eq!(A.first_invalid(b"0a!"), Some((2, b'!')));
    }
}
