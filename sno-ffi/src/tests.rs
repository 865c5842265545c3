//! Unit tests across the C surface (versions, partition requests, statuses, errors).

use std::ffi::CStr;

use sno_core::ErrorKind;

use crate::errors::describe;
use crate::sno::requested_partition;
use crate::*;

#[test]
fn version_literals_match_the_crate() {
    assert_eq!(
        SNO_VERSION_MAJOR.to_string(),
        env!("CARGO_PKG_VERSION_MAJOR")
    );
    assert_eq!(
        SNO_VERSION_MINOR.to_string(),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    assert_eq!(
        SNO_VERSION_PATCH.to_string(),
        env!("CARGO_PKG_VERSION_PATCH")
    );
    let part = |s: &str| s.parse::<u32>().unwrap_or(u32::MAX);
    let want = part(env!("CARGO_PKG_VERSION_MAJOR")) << 16
        | part(env!("CARGO_PKG_VERSION_MINOR")) << 8
        | part(env!("CARGO_PKG_VERSION_PATCH"));
    assert_eq!(sno_version(), want);
}

#[test]
fn partition_values() {
    let opts = |v| requested_partition(v, false);
    assert_eq!(opts(0), Ok(None), "zeroed options: the default");
    assert_eq!(opts(SNO_PARTITION_DEFAULT), Ok(None));
    assert_eq!(opts(SNO_PARTITION_FIXED), Ok(Some(0)));
    assert_eq!(opts(SNO_PARTITION_FIXED | 0xFFFF), Ok(Some(0xFFFF)));
    for bad in [
        1,
        0xFFFF,
        -2,
        i32::MIN,
        i32::MAX,
        SNO_PARTITION_FIXED << 1 | 5,
    ] {
        assert_eq!(opts(bad), Err(sno_status::InvalidArgument), "{bad:#x}");
    }
    let restore = |v| requested_partition(v, true);
    assert_eq!(
        restore(SNO_PARTITION_DEFAULT),
        Ok(None),
        "the snapshot's own"
    );
    assert_eq!(restore(0), Ok(Some(0)));
    assert_eq!(restore(0xFFFF), Ok(Some(0xFFFF)));
    assert_eq!(restore(SNO_PARTITION_FIXED | 7), Ok(Some(7)));
    for bad in [-2, 0x2_0000, i32::MIN] {
        assert_eq!(restore(bad), Err(sno_status::InvalidArgument), "{bad:#x}");
    }
}

#[test]
fn every_status_is_described() {
    // Every number up to the table's highest is taken (numbers are never reused), then none.
    let highest = ErrorKind::ALL.iter().map(|k| i32::from(k.status())).max();
    let highest = highest.expect("a table of kinds");
    for s in (0..=highest).chain([255]) {
        assert_ne!(describe(s), c"unknown status", "{s}");
    }
    assert_eq!(describe(highest + 1), c"unknown status");
    for kind in ErrorKind::ALL {
        let status = i32::from(kind.status());
        assert_eq!(
            sno_status::from_number(status).map(|s| s as i32),
            Some(status)
        );
        assert_eq!(describe(status).to_str().ok(), Some(kind.summary()));
    }
    assert_eq!(
        sno_status::from(sno_core::Error::AmbiguousFormat {
            candidates: sno_core::FormatSet::EMPTY
        }),
        sno_status::AmbiguousFormat
    );
    let lease_error = ::sno_lease::Error::NoFreePartition {
        namespace: "n".into(),
        first: 1,
        last: 2,
    };
    assert_eq!(
        sno_status::from(lease_error),
        sno_status::LeaseNoFreePartition
    );
    let expired = ::sno_lease::Error::Id(sno_core::Error::LeaseExpired { partition: 3 });
    assert_eq!(sno_status::from(expired), sno_status::LeaseExpired);
    let tls = ::sno_lease::Error::Tls {
        detail: "certificate verification failed".into(),
    };
    assert_eq!(sno_status::from(tls), sno_status::LeaseTlsFailed);
    assert_eq!(
        sno_status::from_number(41),
        Some(sno_status::LeaseTlsFailed)
    );
}

#[test]
fn last_error_message_is_recorded_per_thread() {
    let mut buf = [0x55 as c_char; 64];
    // SAFETY: NULL arguments only; `buf` is a live local of the given length.
    unsafe {
        assert_eq!(
            sno_process_partition(std::ptr::null_mut()),
            sno_status::NullArgument
        );
        let text = describe(1).to_bytes();
        assert_eq!(sno_last_error_message(std::ptr::null_mut(), 0), text.len());
        assert_eq!(sno_last_error_message(buf.as_mut_ptr(), 5), text.len());
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_bytes(), &text[..4]);
    }
    #[cfg(feature = "lease")]
    // SAFETY: a NUL-terminated URL, NULL options, a live out-pointer and a live buffer.
    unsafe {
        let url = c"nowhere";
        let mut lease = std::ptr::null_mut();
        assert_eq!(
            sno_lease_acquire(url.as_ptr(), std::ptr::null(), &mut lease),
            sno_status::LeaseInvalidUrl
        );
        assert!(lease.is_null());
        let n = sno_last_error_message(buf.as_mut_ptr(), buf.len());
        let message = CStr::from_ptr(buf.as_ptr()).to_str().unwrap_or_default();
        assert!(message.contains("scheme"), "{message}");
        assert!(n >= message.len());
    }
    let other = std::thread::spawn(|| {
        // SAFETY: NULL buffer of length 0.
        unsafe { sno_last_error_message(std::ptr::null_mut(), 0) }
    });
    assert_eq!(other.join().ok(), Some(0), "a fresh thread has no message");
}

#[test]
fn null_and_bad_input_give_statuses() {
    let mut id = sno_id::default();
    // SAFETY: every pointer is NULL or points to a live local.
    unsafe {
        assert_eq!(sno_new(0, std::ptr::null_mut()), sno_status::NullArgument);
        assert_eq!(
            sno_id_decode(std::ptr::null(), 16, &mut id),
            sno_status::NullArgument
        );
        assert_eq!(
            sno_id_decode(std::ptr::null(), 0, &mut id),
            sno_status::InvalidLength
        );
        let mut pos = 99usize;
        let text = b"brpk4q72xwf2m6Zl";
        assert_eq!(
            sno_id_decode_at(text.as_ptr().cast(), 16, &mut id, &mut pos),
            sno_status::InvalidByte
        );
        assert_eq!(pos, 14);
        assert_eq!(id, sno_id::default(), "nothing written on failure");
        assert_eq!(
            sno_generator_next(std::ptr::null(), 0, &mut id),
            sno_status::NullArgument
        );
        sno_generator_free(std::ptr::null_mut());
    }
}
