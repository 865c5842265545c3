//! The `uuid` feature: every format stored as a UUID converts to and from `uuid::Uuid`.
#![cfg(feature = "uuid")]

use sno_core::Error;
use sno_core::IdFormat;
use sno_core::scru128::Scru128Id;
use sno_core::typeid::TypeId;
use sno_core::ulid::Ulid;
use sno_core::uuid7::Uuid7;
use sno_core::{ColumnType, Format};

/// `T` converts to a `Uuid` and back (by `From` or `TryFrom`).
fn converts<T: IdFormat + Into<uuid::Uuid> + TryFrom<uuid::Uuid>>() -> Format {
    T::FORMAT
}

#[test]
fn every_uuid_format_converts() {
    let expected = Format::ALL
        .into_iter()
        .filter(|f| f.column_type() == ColumnType::Uuid);
    let converting = [
        converts::<Ulid>(),
        converts::<Uuid7>(),
        converts::<Scru128Id>(),
        converts::<TypeId>(),
    ];
    assert!(expected.eq(converting));
}

#[test]
fn round_trips() {
    let ulid: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap();
    let u = uuid::Uuid::from(ulid);
    assert_eq!(u.as_bytes(), ulid.as_bytes());
    assert_eq!(Ulid::from(u), ulid);
    for u in [uuid::Uuid::nil(), uuid::Uuid::max()] {
        assert_eq!(uuid::Uuid::from(Ulid::from(u)), u);
        assert_eq!(uuid::Uuid::from(Scru128Id::from(u)), u);
        assert_eq!(uuid::Uuid::from(TypeId::from(u)), u);
    }

    let v7: uuid::Uuid = "01890a5d-ac96-774b-bcce-b302099a8057".parse().unwrap();
    let ours = Uuid7::try_from(v7).unwrap();
    assert_eq!(ours.text().as_str(), "01890a5d-ac96-774b-bcce-b302099a8057");
    assert_eq!(uuid::Uuid::from(ours), v7);
    let v4: uuid::Uuid = "550e8400-e29b-41d4-a716-446655440000".parse().unwrap();
    assert_eq!(
        Uuid7::try_from(v4),
        Err(Error::NotVersion7 {
            version: 4,
            variant: 0b10
        })
    );
    assert!(Uuid7::try_from(uuid::Uuid::nil()).is_err());

    let typeid: TypeId = "user_01h455vb4pex5vsknk084sn02q".parse().unwrap();
    let u = uuid::Uuid::from(typeid);
    assert_eq!(u, v7);
    let back = TypeId::from(u);
    assert_eq!(back.prefix(), "");
    assert_eq!(back.with_prefix("user").unwrap(), typeid);
}
