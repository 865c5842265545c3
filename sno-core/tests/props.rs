//! Property tests: round trips, order preservation, strictness.

mod common;

use common::{ALPHABET, expected_text_error, scaled};
use proptest::prelude::*;
use sno_core::Id;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(scaled(4096, 4) as u32))]

    #[test]
    fn text_and_binary_round_trip(bytes in any::<[u8; 10]>()) {
        let id = Id::from_bytes(bytes);
        let text = id.encode_bytes();
        prop_assert!(text.iter().all(|c| ALPHABET.contains(c)));
        prop_assert_eq!(Id::decode(&text), Ok(id));
        prop_assert_eq!(Id::try_from(&bytes[..]), Ok(id));
        prop_assert_eq!(Id::from_fields(id.timestamp(), id.tick_tock(), id.meta(), id.partition(), id.sequence()), Ok(id));
    }

    #[test]
    fn order_is_the_same_in_both_forms(a in any::<[u8; 10]>(), b in any::<[u8; 10]>()) {
        let (x, y) = (Id::from_bytes(a), Id::from_bytes(b));
        prop_assert_eq!(x.cmp(&y), x.encode_bytes().cmp(&y.encode_bytes()));
        prop_assert_eq!(x.cmp(&y), x.to_string().cmp(&y.to_string()));
    }

    #[test]
    fn any_sixteen_bytes_decode_or_name_the_first_bad_byte(input in any::<[u8; 16]>()) {
        match expected_text_error(&input) {
            None => prop_assert_eq!(Id::decode(&input).map(|id| id.encode_bytes()), Ok(input)),
            Some(err) => prop_assert_eq!(Id::decode(&input), Err(err)),
        }
    }

    #[test]
    fn mostly_valid_inputs_fail_at_the_planted_byte(pos in 0usize..16, bad in any::<u8>(), seed in any::<[u8; 10]>()) {
        prop_assume!(!ALPHABET.contains(&bad));
        let mut text = Id::from_bytes(seed).encode_bytes();
        text[pos] = bad;
        prop_assert_eq!(Id::decode(&text), Err(sno_core::Error::InvalidByte { position: pos, byte: bad }));
    }

    #[test]
    fn any_length_but_sixteen_is_refused(input in proptest::collection::vec(any::<u8>(), 0..64)) {
        prop_assume!(input.len() != 16);
        prop_assert_eq!(Id::decode(&input), Err(sno_core::Error::InvalidLength { expected: 16, actual: input.len() }));
    }
}
